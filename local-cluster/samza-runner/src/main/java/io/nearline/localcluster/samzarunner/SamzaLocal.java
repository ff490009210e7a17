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
package io.nearline.localcluster.samzarunner;

import io.nearline.common.config.Config;
import io.nearline.common.config.Namespaces;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.engines.samzakit.SamzaMetrics;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.processes.ForkedKafka;
import io.nearline.localcluster.kit.processes.LocalBroker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.samza.application.SamzaApplication;
import org.apache.samza.config.MapConfig;
import org.apache.samza.job.ApplicationStatus;
import org.apache.samza.runtime.LocalApplicationRunner;

/**
 * What every local Samza run shares: the broker in a JVM of its own, the jobs' metrics mirrored into
 * memory, and the job's config as the local runner needs it. That config starts from the one the
 * job's package ships (its {@code config/*.properties}, also on the classpath), so stores, serdes and
 * systems are the production ones; the local run then replaces what a single machine needs replaced
 * (coordinator, one container, the broker, replication factor 1, state under the work dir), and the
 * run's own configuration comes last.
 */
final class SamzaLocal {

    /** The jobs' counters and timers in this JVM, summed over tasks. */
    static final InMemoryMetrics METRICS = new InMemoryMetrics();

    static {
        SamzaMetrics.mirrorInto(METRICS);
    }

    private SamzaLocal() {}

    static LocalBroker broker(LocalRunOptions run, Path dir) throws IOException {
        return ForkedKafka.start(ForkedKafka.brokerJar(run.kafkaJar), dir);
    }

    /**
     * The Samza settings of a job's shipped config ({@code cache-updater.properties},
     * {@code tracking-join.properties}). Its Nearline settings describe a production deployment
     * (topics, the Couchbase cluster): a local run takes its own, so they are left out.
     */
    static Map<String, String> shipped(String file) {
        Properties props = new Properties();
        try (InputStream in = SamzaLocal.class.getResourceAsStream("/nearline-samza/" + file)) {
            if (in == null) {
                throw new IllegalStateException("the job's config " + file + " is not on the classpath");
            }
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        props.stringPropertyNames().stream()
                .filter(k -> !Namespaces.isNearline(k))
                .forEach(k -> out.put(k, props.getProperty(k)));
        return out;
    }

    /** The config of one local run: shipped, then the single-machine settings, then the run's own. */
    static Map<String, String> config(String shippedFile, LocalRunOptions run, Config config, Path work) {
        String servers = config.raw("kafka.bootstrap-servers").orElseThrow();
        Map<String, String> samza = shipped(shippedFile);
        samza.remove("job.factory.class");
        samza.remove("yarn.package.path");
        samza.put("job.coordinator.factory", "org.apache.samza.standalone.PassthroughJobCoordinatorFactory");
        samza.put("task.name.grouper.factory", "org.apache.samza.container.grouper.task.SingleContainerGrouperFactory");
        samza.put("processor.id", "0");
        samza.put("job.jmx.enabled", "false");
        // a job that runs its tasks on the run loop thread (pool size 0, the join) keeps that
        if (!"0".equals(samza.get("job.container.thread.pool.size"))) {
            samza.put("job.container.thread.pool.size", Integer.toString(run.parallelism));
        }
        samza.put("task.commit.ms", Long.toString(run.checkpointInterval.toMillis()));
        samza.put("systems.kafka.consumer.bootstrap.servers", servers);
        samza.put("systems.kafka.producer.bootstrap.servers", servers);
        samza.replaceAll((k, v) -> k.endsWith("replication.factor") ? "1" : v);
        samza.put("job.logged.store.base.dir", work.resolve("samza-state").toString());
        samza.put("job.non-logged.store.base.dir", work.resolve("samza-state").toString());
        // no MBeans for a local run; where the tasks are in their inputs, for a job started again after a kill
        samza.put("metrics.reporters", InputPositions.REPORTER);
        samza.put("metrics.reporter." + InputPositions.REPORTER + ".class", InputPositions.class.getName());
        samza.putAll(config.asMap());
        return samza;
    }

    static LocalApplicationRunner start(SamzaApplication<?> app, Map<String, String> config) {
        InputPositions.clear();
        LocalApplicationRunner runner = new LocalApplicationRunner(app, new MapConfig(config));
        runner.run();
        return runner;
    }

    /** Kills the runner (flushing its producers on the way out) and waits for it to end. */
    static void stop(LocalApplicationRunner runner) {
        runner.kill();
        runner.waitForFinish(Duration.ofSeconds(60));
    }

    /** Why the app is no longer running, or null while it runs. */
    static String stopped(LocalApplicationRunner runner) {
        ApplicationStatus status = runner.status();
        return status != null
                        && (status.getStatusCode() == ApplicationStatus.StatusCode.UnsuccessfulFinish
                                || status.getStatusCode() == ApplicationStatus.StatusCode.SuccessfulFinish)
                ? status.toString()
                : null;
    }
}
