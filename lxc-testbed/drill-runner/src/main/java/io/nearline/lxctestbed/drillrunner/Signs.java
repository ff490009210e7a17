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
package io.nearline.lxctestbed.drillrunner;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.deploy.FlinkYarn;
import io.nearline.jobs.deploy.SamzaMetricsStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.StreamSupport;

/**
 * The system under test's own record that it noticed a fault: YARN's node and application state,
 * a NodeManager's word on a container, Flink's JobManager's failure history, the job's own counter of
 * store calls retried. A drill's detection comes only from these, never from its own load.
 */
final class Signs {

    /** A kind of evidence, by the name {@code results.json} gives it in {@code detectedBy}. */
    enum Sign {
        NODE_LOST("yarn:node-lost"),
        CONTAINER_EXIT("yarn:container-exit"),
        AM_RESTART("yarn:am-restart"),
        FLINK_RESTART("flink:restart"),
        STORE_RETRIES("job:store-retries");

        final String label;

        Sign(String label) {
            this.label = label;
        }
    }

    /**
     * The signs that show the system noticed a fault of this kind; one of them must appear or the run
     * is INVALID. Empty for the faults the jobs are built to ride through without restarting (a slow,
     * lossy or delayed link, a broker restart): for those the fault's measured effect is the evidence,
     * and any sign that does appear is still recorded.
     */
    static List<Sign> expected(Drill.Kind kind) {
        return switch (kind) {
            case KILL_NODE, PAUSE_NODE, PARTITION_NODE -> List.of(Sign.NODE_LOST);
            case KILL_CONTAINER -> List.of(Sign.CONTAINER_EXIT);
            case KILL_AM -> List.of(Sign.AM_RESTART);
            // the job's writes fail and are retried; Flink may restart the job instead
            case STORE_OUTAGE, PARTITION_STORE -> List.of(Sign.STORE_RETRIES, Sign.FLINK_RESTART);
            case SLOW_LINK, LOSSY_LINK, DELAYED_LINK, BROKER_RESTART -> List.of();
        };
    }

    /** The job a drill runs: its YARN application, its engine, its name. */
    record Job(String appId, String engine, String name) {}

    /** Where the signs of one fault are read, from what was so just before it. */
    interface Source {
        /**
         * When {@code sign} showed for the fault as {@code applied} (what it hit), in epoch milliseconds,
         * the system's own time where it gives one; empty while it has not.
         */
        Optional<Long> seen(Sign sign, Injector.Applied applied);
    }

    /**
     * The testbed's signs for one fault on a running job. Made just before the fault is applied: the
     * job's count of store retries is read then, and every sign must come after that moment.
     */
    static final class OnTestbed implements Source {
        private final ClusterFile cluster;
        private final String appId;
        private final String engine;
        private final String jobName;
        private final Function<String, String> addressOf; // a node's name to its address
        private final long startMillis;
        private final boolean countsRetries;
        private final long retriesBefore;
        private long retriesReadAt;

        OnTestbed(ClusterFile cluster, Job job, Drill.Kind kind, Function<String, String> addressOf, long startMillis) {
            this.cluster = cluster;
            this.appId = job.appId();
            this.engine = job.engine();
            this.jobName = job.name();
            this.addressOf = addressOf;
            this.startMillis = startMillis;
            // the count is read only where it is evidence: on Samza it is the whole metrics stream
            this.countsRetries = expected(kind).contains(Sign.STORE_RETRIES);
            this.retriesBefore = countsRetries ? storeRetries() : -1;
        }

        @Override
        public Optional<Long> seen(Sign sign, Injector.Applied applied) {
            return switch (sign) {
                case NODE_LOST ->
                    now(Set.of("LOST", "UNHEALTHY", "SHUTDOWN")
                            .contains(YarnRest.nodes(cluster.yarnWeb()).getOrDefault(address(applied), "")));
                case CONTAINER_EXIT -> now(applied.container() != null && exited(applied));
                case AM_RESTART ->
                    quietly(
                            () -> YarnRest.attemptStarts(cluster.yarnWeb(), appId).stream()
                                    .filter(t -> t >= startMillis)
                                    .min(Long::compare),
                            Optional.empty());
                case STORE_RETRIES -> now(countsRetries && retriesRisen());
                case FLINK_RESTART -> flinkFailureSince();
            };
        }

        private String address(Injector.Applied applied) {
            return quietly(() -> addressOf.apply(applied.target()), "");
        }

        private static Optional<Long> now(boolean shows) {
            return shows ? Optional.of(System.currentTimeMillis()) : Optional.empty();
        }

        private boolean exited(Injector.Applied applied) {
            String state = YarnRest.containerState("http://" + address(applied) + ":8042", applied.container());
            return state != null && !state.startsWith("RUNNING");
        }

        /** Whether the job's count of store retries has risen; read at most every 2 s (Samza's snapshots come every 5 s). */
        private boolean retriesRisen() {
            if (System.currentTimeMillis() - retriesReadAt < 2_000) {
                return false;
            }
            retriesReadAt = System.currentTimeMillis();
            return storeRetries() > Math.max(0, retriesBefore); // no count sent yet: nothing retried yet
        }

        /** The job's {@code write.retries.unavailable}, summed over its tasks; -1 where it cannot be read. */
        private long storeRetries() {
            String counter = "write.retries.unavailable";
            if (engine.equals("flink")) {
                return quietly(
                        () -> FlinkYarn.running(cluster, jobName)
                                .map(r -> FlinkRest.metricSum(r.rest(), r.jobId(), counter))
                                .orElse(-1L),
                        -1L);
            }
            return quietly(() -> SamzaMetricsStream.count(cluster.kafka(), jobName, counter), -1L);
        }

        /** The first failure in the JobManager's history at or after the fault, by the JobManager's clock. */
        private Optional<Long> flinkFailureSince() {
            if (!engine.equals("flink")) {
                return Optional.empty();
            }
            return quietly(
                    () -> FlinkYarn.running(cluster, jobName).flatMap(r -> {
                        JsonNode entries = FlinkRest.get(r.rest(), "/jobs/" + r.jobId() + "/exceptions")
                                .path("exceptionHistory")
                                .path("entries");
                        return StreamSupport.stream(entries.spliterator(), false)
                                .map(e -> e.path("timestamp").asLong(0))
                                .filter(t -> t >= startMillis)
                                .min(Long::compare);
                    }),
                    Optional.empty());
        }

        private interface Read<T> {
            T get();
        }

        /** A read that may fail while the fault is in place (a proxy to a dead AM): as if nothing showed. */
        private static <T> T quietly(Read<T> read, T otherwise) {
            try {
                return read.get();
            } catch (ClusterException | IllegalStateException e) {
                return otherwise;
            }
        }
    }

    private Signs() {}
}
