package io.nearline.tracking.join;

/**
 * Which partition a request's events go to in a replay: the same for the index and the broker
 * topic, so one task sees all of a request (co-partitioning; in production Kafka's default
 * partitioner on the requestId key does the same).
 */
public final class JoinPartitions {

    private JoinPartitions() {}

    public static int of(String requestId, int partitions) {
        return Math.floorMod(requestId.hashCode(), partitions);
    }

    /** The name of an input partition, as the clocks and the reference run call it. */
    public static String input(String topic, int partition) {
        return topic + "/" + partition;
    }
}
