package io.nearline.tracking.flink;

/** A record for an output topic: key (the requestId, null for dead letters) and Avro value (a Flink POJO). */
public class KafkaOutput {
    public String key;
    public byte[] value;

    public KafkaOutput() {}

    public KafkaOutput(String key, byte[] value) {
        this.key = key;
        this.value = value;
    }
}
