package io.nearline.localcluster.replay;

/**
 * The Kafka broker of a local run, wherever it runs: in the runner's JVM (Flink's side) or in a
 * JVM of its own ({@link ForkedKafka}: a Samza JVM cannot hold a Kafka 4 broker). Ready when
 * returned; {@link #close} stops it and only it.
 */
public interface LocalBroker extends AutoCloseable {

    String bootstrapServers();

    @Override
    void close();
}
