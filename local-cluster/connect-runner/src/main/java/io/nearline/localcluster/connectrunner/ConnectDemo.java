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

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import io.nearline.common.testkit.LocalProcesses;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.jobs.kit.processes.PluginZip;
import io.nearline.localcluster.demo.Demo;
import io.nearline.localcluster.demo.DemoOptions;
import io.nearline.localcluster.kit.processes.ForkedConnect;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code demo --source postgres|mysql --engine connect}: the demo on a real database with the cache
 * updater as the cache sink connector, on the same Kafka Connect worker as Debezium's connector (the
 * shipped plugin beside Debezium's on its plugin path), as a Connect-only deployment runs it. The
 * connector's counters come from the worker's JMX.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "The demo on a real database with the cache sink connector on Kafka Connect.")
public final class ConnectDemo extends ConnectEngine implements Callable<Integer>, Demo.Engine {

    @Mixin
    DemoOptions options;

    private ForkedConnect worker;
    /** The worker's JMX port on loopback, where the connector's counters are read. */
    private int jmx;

    private WorkerCounts counts;

    @Override
    public Integer call() throws Exception {
        if (!options.source.equals("postgres") && !options.source.equals("mysql")) {
            throw new IllegalArgumentException("--engine connect runs the demo on a real database: add --source "
                    + "postgres or --source mysql (the simulator's demo restarts a Flink or Samza job)");
        }
        requireNetworked(options.store);
        try {
            return Demo.run(options, this);
        } finally {
            if (counts != null) {
                counts.close();
            }
        }
    }

    @Override
    Path kafkaJar() {
        return options.run.kafkaJar;
    }

    @Override
    public ForkedConnect startConnect(Path dir, String bootstrap) throws IOException {
        Path plugins = PluginZip.unpack(ForkedConnect.sinkPluginZip(Home.dir()), dir.resolveSibling("connect-plugins"));
        jmx = LocalProcesses.freePort();
        worker = SinkRun.startWorker(dir, bootstrap, plugins, jmx);
        return worker;
    }

    /** The cache sink connector on the demo's worker; close() removes it. */
    @Override
    public AutoCloseable start(Config config, Path work) throws Exception {
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        SinkRun sink = new SinkRun(config, settings, options.run, work);
        KafkaTopics.createTopics(settings.bootstrapServers(), Map.of(sink.connectDeadLetterTopic(), 1));
        counts = new WorkerCounts(METRICS, sink.connectorName());
        counts.watch(jmx);
        worker.deploy(sink.connectorName(), sink.connectorConfig(), Duration.ofSeconds(120));
        System.out.println("  cache sink connector " + sink.connectorName() + " running on " + worker.rest());
        return () -> worker.remove(sink.connectorName());
    }
}
