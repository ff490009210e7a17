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
package io.nearline.jobs.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code nearline cluster check}: every address a cluster file names, probed the way the commands that
 * use it will use it (Kafka's metadata, a read of the cache, Flink's {@code /overview}, the
 * ResourceManager's cluster info, Connect's root, a database login, the package directory). Each is
 * reported; the first that fails is named on the last line, with exit 2.
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = "Probe every address DIR/cluster.yaml names; exit 2 naming the first that is unreachable or "
                + "misconfigured (docs/clusters.md).")
public final class ClusterCheck implements Callable<Integer> {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    @Mixin
    ClusterOption cluster;

    /** One probe: what it checks, and the reason it failed, or null. */
    private record Probe(String what, String failure) {}

    @Override
    public Integer call() {
        ClusterFile c = cluster.read();
        Probe first = null;
        for (Probe p : probes(c)) {
            System.out.println("  " + (p.failure() == null ? "ok      " : "FAILED  ") + p.what()
                    + (p.failure() == null ? "" : ": " + p.failure()));
            if (first == null && p.failure() != null) {
                first = p;
            }
        }
        if (first != null) {
            throw new ClusterException("cluster check: " + first.what() + ": " + first.failure());
        }
        System.out.println("cluster check: every address in " + c.dir().resolve(ClusterFile.NAME) + " answers");
        return 0;
    }

    /** A probe of each address {@code c} names, in the order they are reported. */
    private static List<Probe> probes(ClusterFile c) {
        List<Probe> probes = new ArrayList<>();
        KafkaClient kafka = c.kafka();
        probes.add(probe("kafka " + kafka.servers() + " (" + kafka.security().describe() + ")", () -> {
            int brokers = KafkaTopics.brokers(kafka, LIMIT);
            return brokers > 0 ? null : "no broker in the cluster's metadata";
        }));
        probes.add(probe("cache " + c.describeStore(), () -> store(c)));
        if (c.flinkRestUrl() != null) {
            probes.add(probe(
                    "flink " + c.flinkRestUrl(),
                    () -> FlinkRest.reachable(c.flinkRestUrl())
                            ? null
                            : "no answer from " + c.flinkRestUrl() + "/overview"));
        }
        if (c.yarnWebUrl() != null) {
            probes.add(probe("yarn " + c.yarnWebUrl(), () -> yarn(c)));
        }
        if (c.connectRestUrl() != null) {
            probes.add(probe(
                    "connect " + c.connectRestUrl(),
                    () -> JsonRest.call(
                                            "the Kafka Connect worker",
                                            c.connectRestUrl(),
                                            "/",
                                            HttpRequest.newBuilder().GET(),
                                            LIMIT)
                                    .has("version")
                            ? null
                            : "no Kafka Connect worker answers at " + c.connectRestUrl()));
        }
        c.databases()
                .forEach((kind, section) -> probes.add(probe(kind + " " + section.get("jdbc-url"), () -> {
                    try (Connection conn = SourceDatabase.connect(section)) {
                        return conn.isValid((int) LIMIT.toSeconds()) ? null : "the connection is not valid";
                    }
                })));
        if (c.zookeeperQuorum() != null) {
            probes.add(probe("zookeeper " + c.zookeeperQuorum(), () -> zookeeper(c)));
        }
        if (c.packages() != null) {
            // through Hadoop's client for hdfs://: the NameNode answers and the directory can be made
            probes.add(probe("packages " + c.packages(), () -> c.packageStore().unwritableReason()));
        }
        return probes;
    }

    /** The ResourceManager says it is started. */
    private static String yarn(ClusterFile c) {
        JsonNode info = JsonRest.call(
                "YARN's ResourceManager",
                c.yarnWebUrl(),
                "/ws/v1/cluster/info",
                HttpRequest.newBuilder().header("Accept", "application/json"),
                LIMIT);
        // Hadoop 3.4's answer is the object itself; earlier releases wrap it in "clusterInfo"
        String state =
                info.path("clusterInfo").path("state").asText(info.path("state").asText(""));
        return state.equals("STARTED") ? null : "the ResourceManager is not started (state '" + state + "')";
    }

    /** One server of the quorum (host:port,...[/chroot]) takes a connection. */
    private static String zookeeper(ClusterFile c) {
        String servers = c.zookeeperQuorum().replaceFirst("/.*$", "");
        return Arrays.stream(servers.split(",")).anyMatch(Daemons::listening)
                ? null
                : "no server of the quorum takes connections";
    }

    /** A read of a key no job writes: the store is reached, and the bucket and credentials are accepted. */
    private static String store(ClusterFile c) {
        Config config = Config.of(c.jobSettings());
        try (CacheStore store = CacheStores.open(config)) {
            store.get(CacheKey.of("nearline:cluster-check"));
            return null;
        }
    }

    private interface Check {
        String run() throws Exception;
    }

    private static Probe probe(String what, Check check) {
        try {
            return new Probe(what, check.run());
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Probe(what, why.lines().findFirst().orElse(why));
        }
    }
}
