package io.nearline.cacheupdater.flink;

/**
 * A change event that passed validation, keyed by its cache key. It travels as its original Avro
 * bytes (cheap to ship between tasks, decoded again where it is written). A Flink POJO.
 */
public class Change {
    public String key;
    public byte[] value;
    public String topic;
    public int partition;
    public long offset;
    /** A bootstrap row: an equal version in the store is rewritten so its TTL starts again. */
    public boolean refreshTtl;

    public Change() {
    }

    public Change(String key, byte[] value, String topic, int partition, long offset) {
        this.key = key;
        this.value = value;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }
}
