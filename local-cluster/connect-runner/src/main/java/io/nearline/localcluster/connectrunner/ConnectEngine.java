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
package io.nearline.localcluster.connectrunner;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.kit.options.StoreOptions;
import io.nearline.localcluster.kit.processes.ForkedKafka;
import io.nearline.localcluster.kit.processes.LocalBroker;
import io.nearline.localcluster.kit.processes.LocalEngine;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Kafka Connect as a local run's engine: the broker in a JVM of its own (the worker is another), and
 * the connector's counters as its worker publishes them over JMX ({@link WorkerCounts}).
 */
abstract class ConnectEngine implements LocalEngine {

    /** The connector's counters, read from the worker's JMX. */
    static final InMemoryMetrics METRICS = new InMemoryMetrics();

    /** The broker jar the run was given ({@code --kafka-jar}), or null for the built one. */
    abstract Path kafkaJar();

    /** The cache sink connector's store is reached over the network: a worker's tasks move between workers. */
    static void requireNetworked(StoreOptions store) {
        if (!store.isNetworked()) {
            throw new IllegalArgumentException("--store " + store.store + " cannot be written by the cache sink "
                    + "connector: a Connect worker's tasks move between workers, so its cache is couchbase or redis "
                    + "(--store couchbase|redis)");
        }
    }

    @Override
    public String name() {
        return "connect";
    }

    @Override
    public InMemoryMetrics localMetrics() {
        return METRICS;
    }

    @Override
    public LocalBroker startBroker(Path dir) throws IOException {
        return ForkedKafka.start(ForkedKafka.brokerJar(kafkaJar()), dir);
    }
}
