package io.nearline.localcluster.kit;

import java.io.IOException;

/**
 * The Kafka broker of a local run, wherever it runs: in the runner's JVM (Flink's side) or in a
 * JVM of its own ({@link ForkedKafka}: a Samza JVM cannot hold a Kafka 4 broker). Ready when
 * returned; {@link #close} stops it and only it.
 */
public interface LocalBroker extends AutoCloseable {

    String bootstrapServers();

    /**
     * Stops the broker and starts it again on the same addresses with the same data, as an operator's
     * restart would: clients see connections refused meanwhile and must reconnect by themselves.
     */
    void restart() throws IOException;

    @Override
    void close();
}
