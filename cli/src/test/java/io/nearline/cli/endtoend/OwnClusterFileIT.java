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
package io.nearline.cli.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cli.CliRun;
import io.nearline.common.testkit.Printed;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.deploy.FlinkDeploy;
import io.nearline.jobs.deploy.SamzaDeploy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Clusters Nearline did not start, as a user points at them: a second cluster file written by
 * {@code cluster init} with the local cluster's addresses only (no processes, no network, no local
 * directories; packages on the cluster's HDFS), probed by {@code cluster check}, then a Samza job
 * deployed to YARN with its package on HDFS, and a Flink session job deployed and upgraded, each fed and
 * checked through it. The broker takes only SASL over TLS ({@code --kafka-security sasl-ssl}), so every
 * client on the way (the commands', Samza's client, ApplicationMaster and containers, the Flink job's
 * sources and sinks) connects with the file's Kafka client security. A file with one wrong address per
 * kind, or a wrong Kafka password, fails the check with exit 2, the address named.
 */
class OwnClusterFileIT extends LocalClusterIT {

    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void aClusterFileOfAddressesOnlyIsCheckedThenDeployedPublishedCheckedAndUpgradedThrough() throws Exception {
        Path local = dir.resolve("local");
        assertEquals(
                0,
                nearline(
                        "cluster",
                        "up",
                        "--flink",
                        "--yarn",
                        "--kafka-security",
                        "sasl-ssl",
                        "--dir",
                        local.toString()),
                err.toString());
        ClusterFile c = ClusterFile.read(local);
        try {
            Path own = dir.resolve("own");
            Printed init = CliRun.of(init(own, c, Map.of()).toArray(String[]::new));
            assertEquals(0, init.exit(), init.out());
            String file = Files.readString(own.resolve(ClusterFile.NAME));
            assertFalse(file.contains("processes") || file.contains("namespace"), file);
            assertFalse(file.contains(Files.readString(Path.of(c.storeAddress().get("password-file")))), "no password");
            assertFalse(file.contains(Files.readString(local.resolve("kafka.password"))), "no Kafka password");

            Printed check = CliRun.of("cluster", "check", "--cluster", own.toString());
            assertEquals(0, check.exit(), check.out());
            assertTrue(check.out().contains("(sasl-ssl (plain, user nearline))"), check.out());
            for (String kind : List.of("kafka", "cache", "flink", "yarn", "packages hdfs://")) {
                assertTrue(check.out().contains("ok      " + kind), kind + ":\n" + check.out());
            }

            // Samza on YARN: the package goes to HDFS and YARN localizes it from there
            Path scrambled = scenario("cdc/scrambled.jsonl");
            assertEquals(
                    0,
                    nearline("deploy", descriptor("cache-updater-samza-yarn.yaml"), "--cluster", own.toString()),
                    err.toString());
            String samzaConfig = Files.readString(own.resolve("deploys/nearline-cache-updater-samza.properties"));
            assertTrue(
                    samzaConfig.contains("yarn.package.path=" + c.packages() + "/"),
                    "package on HDFS:\n" + samzaConfig);
            assertEquals(0, nearline("publish", "cdc", "--events", scrambled.toString(), "--cluster", own.toString()));
            assertEquals(0, checkLive(own, "couchbase", "180s", scrambled));
            String samza = SamzaDeploy.running(c.yarnWeb(), "nearline-cache-updater-samza")
                    .orElseThrow()
                    .id();
            assertEquals(0, nearline("jobs", "stop", samza, "--cluster", own.toString()), err.toString());

            String descriptor = descriptor("cache-updater-flink-session.yaml");
            assertEquals(0, nearline("deploy", descriptor, "--cluster", own.toString()), err.toString());
            String first = FlinkDeploy.runningJob(c.flinkRest(), "nearline-cache-updater")
                    .orElseThrow();
            assertEquals(0, checkLive(own, "couchbase", "120s", scrambled));
            assertEquals(0, nearline("jobs", "upgrade", descriptor, "--cluster", own.toString()), err.toString());
            // the upgrade's savepoint went where the file's flink.state-dir says, not to its directory
            try (var savepoints = Files.list(own.resolve("flink-state/savepoints"))) {
                assertTrue(savepoints.anyMatch(sp -> Files.isRegularFile(sp.resolve("_metadata"))), "a savepoint");
            }
            assertFalse(Files.exists(own.resolve("savepoints")));
            assertNotEquals(
                    first,
                    FlinkDeploy.runningJob(c.flinkRest(), "nearline-cache-updater")
                            .orElseThrow());
            Path edge = scenario("cdc/edge-cases.jsonl");
            assertEquals(0, nearline("publish", "cdc", "--events", edge.toString(), "--cluster", own.toString()));
            assertEquals(0, checkLive(own, "couchbase", "120s", scrambled, edge));

            noPasswordAtRest(local, own, c);

            // one wrong address per kind, and a wrong Kafka password: exit 2, and the last line names it
            String host = c.address();
            Path wrongPassword = Files.writeString(dir.resolve("wrong.password"), "not-the-password");
            Map<String, Map<String, String>> wrong = Map.of(
                    "kafka", Map.of("--kafka", host + ":1"),
                    "kafka-password", Map.of("--kafka-password", "file:" + wrongPassword),
                    "flink", Map.of("--flink-rest", "http://" + host + ":1"),
                    "cache", Map.of("--couchbase-bucket", "no-such-bucket"),
                    "packages", Map.of("--packages", "hdfs://" + host + ":1/nearline/packages"));
            for (Map.Entry<String, Map<String, String>> w : wrong.entrySet()) {
                Path bad = dir.resolve("wrong-" + w.getKey());
                assertEquals(
                        0,
                        CliRun.of(init(bad, c, w.getValue()).toArray(String[]::new))
                                .exit());
                Printed refused = CliRun.of("cluster", "check", "--cluster", bad.toString());
                assertEquals(2, refused.exit(), refused.out());
                String kind = w.getKey().startsWith("kafka") ? "kafka" : w.getKey();
                assertTrue(refused.out().contains("error: cluster check: " + kind), refused.out());
            }
        } finally {
            Printed down = CliRun.of("cluster", "down", "--dir", local.toString());
            assertEquals(0, down.exit(), down.out());
        }
    }

    /**
     * The Kafka and cache passwords found nowhere the deploys left data or logs: Kafka's segments (Samza's
     * coordinator stream and config among them), YARN's containers' and daemons' logs, HDFS's blocks,
     * the Flink session's logs and blobs, the deploys' files. Only the files that hold a secret by
     * design are left out, and the search must find the passwords there (the control).
     */
    private static void noPasswordAtRest(Path local, Path own, ClusterFile c) throws IOException {
        Path kafkaPassword = local.resolve("kafka.password");
        Path cachePassword = Path.of(c.storeAddress().get("password-file"));
        SecretSearch search = new SecretSearch(Map.of(
                "the Kafka password", Files.readString(kafkaPassword).strip(),
                "the cache password", Files.readString(cachePassword).strip()));
        Set<Path> kept = new HashSet<>(Set.of(kafkaPassword, cachePassword));
        try (Stream<Path> brokerSide = Files.list(local.resolve("kafka-security"))) {
            brokerSide.forEach(kept::add); // the broker's users, its stores and their password
        }
        kept = kept.stream().map(p -> p.toAbsolutePath().normalize()).collect(Collectors.toSet());
        List<String> found = search.findIn(List.of(local, own), kept);
        assertEquals(List.of(), found, "a password at rest");
        // control: the same search finds each password in the files kept for it
        List<String> control = search.findIn(List.of(kafkaPassword, cachePassword), Set.of());
        assertEquals(2, control.size(), control.toString());
    }

    /** {@code cluster init} of {@code own} with the local cluster's addresses, some replaced. */
    private static List<String> init(Path own, ClusterFile c, Map<String, String> replaced) {
        Map<String, String> store = c.storeAddress();
        List<String> args = new ArrayList<>(List.of("cluster", "init", "--dir", own.toString()));
        Map<String, String> options = new java.util.LinkedHashMap<>();
        options.put("--kafka", c.kafkaBootstrapServers());
        Map<String, String> kafka = c.kafkaSecurity();
        options.put("--kafka-security", kafka.get("security.protocol"));
        options.put("--kafka-user", kafka.get("sasl.username"));
        options.put("--kafka-password", kafka.get("sasl.password"));
        options.put("--kafka-truststore", kafka.get("ssl.truststore"));
        options.put("--kafka-truststore-password", kafka.get("ssl.truststore-password"));
        options.put("--flink-rest", c.flinkRestUrl());
        options.put("--couchbase", store.get("connection-string"));
        options.put("--couchbase-bucket", store.get("bucket"));
        options.put("--couchbase-user", store.get("username"));
        options.put("--couchbase-password", "file:" + store.get("password-file"));
        options.put("--flink-state", "file://" + own.resolve("flink-state").toAbsolutePath());
        options.put("--yarn-conf", c.yarnConfDir().toString());
        options.put("--packages", c.packages());
        options.putAll(replaced);
        options.forEach((k, v) -> args.addAll(List.of(k, v)));
        return args;
    }
}
