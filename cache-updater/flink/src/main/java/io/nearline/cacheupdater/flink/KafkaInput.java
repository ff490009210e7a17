package io.nearline.cacheupdater.flink;

/** One record as read from the CDC topic, untouched, with its position (a Flink POJO). */
public class KafkaInput {
    public String topic;
    public int partition;
    public long offset;
    public byte[] key;
    public byte[] value;

    public KafkaInput() {}

    public KafkaInput(String topic, int partition, long offset, byte[] key, byte[] value) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value;
    }
}
