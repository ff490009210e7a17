package io.nearline.tracking.flink;

/**
 * One record from the index or broker topic as the source decoded it (a Flink POJO): its event
 * time, whether it was in time for its partition, when it arrived, and the event as the join stores
 * it while it waits ({@link io.nearline.tracking.join.RequestStateCodec}: bytes keep Kryo out).
 * Invalid records carry the rejection, their topic, key and raw value instead.
 */
public class TrackingInput {
    public static final int FRAGMENT = 0;
    public static final int BROKER = 1;
    public static final int INVALID = 2;

    public int kind;
    public String requestId;
    public long ts;
    public long arrivedAt;
    public boolean inTime;
    public String topic;
    public int partition;
    public long offset;
    public byte[] key;
    public byte[] value;
    public String rejectionCode;
    public String rejectionDetail;

    public TrackingInput() {}
}
