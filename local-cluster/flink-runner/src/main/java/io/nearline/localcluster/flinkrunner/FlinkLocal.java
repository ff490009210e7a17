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
package io.nearline.localcluster.flinkrunner;

import io.nearline.common.config.Config;
import io.nearline.common.config.Namespaces;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.engines.flinkkit.FlinkMetrics;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.processes.LocalBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.runtime.state.CheckpointStorage;
import org.apache.flink.runtime.state.CheckpointStorageFactory;
import org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage;
import org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What every local Flink run shares: the broker in this JVM, the jobs' metrics mirrored into memory
 * for the summary, and the MiniCluster's engine settings, which a cluster would take from its
 * configuration and {@code flink run}: parallelism and checkpoint interval from the run's options,
 * a restart strategy, then every non-Nearline key of the run's configuration ({@code --set
 * state.backend.type=rocksdb}) passed through to Flink.
 */
final class FlinkLocal {

    /** The jobs' counters and histograms in this JVM, summed over tasks. */
    static final InMemoryMetrics METRICS = new InMemoryMetrics();

    static {
        FlinkMetrics.mirrorInto(METRICS);
    }

    private FlinkLocal() {}

    static LocalBroker broker(Path dir) {
        return new LocalBroker() {
            private EmbeddedKafka kafka = EmbeddedKafka.start(dir);

            @Override
            public String bootstrapServers() {
                return kafka.bootstrapServers();
            }

            @Override
            public void restart() {
                kafka = kafka.restart();
            }

            @Override
            public void close() {
                kafka.close();
            }
        };
    }

    /** How a local run's job restarts after a failure. */
    enum Restarts {
        /** Flink's default, on and on (the demo, which injects failures of its own). */
        FLINKS_DEFAULT,
        /** Two restarts, then the run fails (replays: a job that keeps failing says so). */
        FAIL_AFTER_TWO
    }

    /** A local environment for one run. */
    static StreamExecutionEnvironment env(LocalRunOptions run, Config config, Restarts restarts) {
        return env(run, config, restarts, null);
    }

    /**
     * As above; in the job's own process of a crash test ({@code --job-process}) the checkpoints go to
     * {@code work/flink-checkpoints} and are kept when the process dies, and the process started again
     * ({@code --restore}) resumes from the newest complete one.
     */
    static StreamExecutionEnvironment env(LocalRunOptions run, Config config, Restarts restarts, Path work) {
        Map<String, String> engine = new TreeMap<>();
        config.asMap().forEach((k, v) -> {
            if (!Namespaces.isNearline(k)) {
                engine.put(k, v);
            }
        });
        Configuration flink = new Configuration();
        flink.set(CoreOptions.DEFAULT_PARALLELISM, run.parallelism);
        flink.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, run.checkpointInterval);
        flink.set(CheckpointingOptions.CHECKPOINT_STORAGE, MemoryCheckpoints.class.getName());
        if (restarts == Restarts.FAIL_AFTER_TWO) {
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        }
        if (run.jobProcess != null) {
            Path checkpoints = work.resolve("flink-checkpoints");
            flink.set(
                    CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                    checkpoints.toUri().toString());
            flink.set(
                    CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
            Path newest = run.restore ? newestCheckpoint(checkpoints) : null;
            if (newest
                    != null) { // killed before its first checkpoint: it starts from the beginning, as a cluster would
                flink.set(StateRecoveryOptions.SAVEPOINT_PATH, newest.toString());
            }
        }
        flink.addAll(Configuration.fromMap(engine));
        return StreamExecutionEnvironment.createLocalEnvironment(run.parallelism, flink);
    }

    /** A join replay's environment (Nearline's job or the SQL baseline): request state in RocksDB under {@code work}, as on a cluster configured for the join. */
    static StreamExecutionEnvironment joinEnv(LocalRunOptions run, Config config, Path work) {
        Config withState = Config.of(Map.of(
                        "state.backend.type",
                        "rocksdb",
                        "state.backend.rocksdb.localdir",
                        work.resolve("flink-rocksdb").toString()))
                .withOverrides(config.asMap());
        return env(run, withState, Restarts.FAIL_AFTER_TWO, work);
    }

    /**
     * Where a local run's checkpoints go: the JobManager's memory, as in Flink's default (a replay is
     * faster so, by a fifth, than with files), but up to {@value #MAX_BYTES} bytes a checkpoint instead of
     * Flink's 5 MB, which a join's state outgrows at higher rates. With a checkpoint directory (a crash
     * test's, or {@code --set execution.checkpointing.dir=...}) they go to files, as Flink would put them.
     */
    public static final class MemoryCheckpoints implements CheckpointStorageFactory<CheckpointStorage> {
        static final int MAX_BYTES = 128 << 20;

        @Override
        public CheckpointStorage createFromConfig(ReadableConfig config, ClassLoader classLoader) {
            if (config.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY).isPresent()) {
                return FileSystemCheckpointStorage.createFromConfig(config, classLoader);
            }
            return new JobManagerCheckpointStorage(MAX_BYTES).configure(config, classLoader);
        }
    }

    /** The newest complete checkpoint under {@code dir} (JOB_ID/chk-N with its _metadata written), or null. */
    static Path newestCheckpoint(Path dir) {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (Stream<Path> files = Files.walk(dir, 3)) {
            return files.filter(p -> p.getFileName().toString().equals("_metadata"))
                    .map(Path::getParent)
                    .max(Comparator.comparingLong(
                            p -> Long.parseLong(p.getFileName().toString().substring(4))))
                    .orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
