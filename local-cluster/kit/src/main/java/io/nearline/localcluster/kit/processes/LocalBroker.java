/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.localcluster.kit.processes;

import java.io.IOException;
import java.util.Optional;

/**
 * The Kafka broker of a local run, wherever it runs: in the runner's JVM (Flink's side) or in a
 * JVM of its own ({@link ForkedKafka}: a Samza JVM cannot hold a Kafka 4 broker). Ready when
 * returned; {@link #close} stops it and only it.
 */
public interface LocalBroker extends AutoCloseable {

    String bootstrapServers();

    /** The broker's own process where it runs in a JVM of its own; empty where it runs in this one. */
    default Optional<ProcessHandle> ownProcess() {
        return Optional.empty();
    }

    /**
     * Stops the broker and starts it again on the same addresses with the same data, as an operator's
     * restart would: clients see connections refused meanwhile and must reconnect by themselves.
     */
    void restart() throws IOException;

    @Override
    void close();
}
