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

import io.nearline.cli.CliRun;
import io.nearline.cli.NearlineCli;
import io.nearline.common.testkit.Printed;
import io.nearline.common.testkit.Required;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.localcluster.cluster.PrivateNetwork;
import io.nearline.localcluster.databases.SqlWorkload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What the deploy ITs share: the checkout as Nearline's home, the commands run in this JVM with their
 * one-line errors kept, the conformance scenarios; skipped (the reason printed) where a machine cannot
 * make the cluster's private network, failed instead where {@code NEARLINE_REQUIRE_LXC} is true.
 */
abstract class LocalClusterIT {

    /** Kept when a test fails: the cluster's logs (DIR/cluster/logs, the YARN containers' logs) say why. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    /** What the commands printed as errors so far. */
    final StringWriter err = new StringWriter();

    @BeforeAll
    static void home() {
        System.setProperty(
                "nearline.home", Path.of("..").toAbsolutePath().normalize().toString());
        Optional<String> skip =
                Required.skipReason(Required.LXC_OR_ROOT, Optional.ofNullable(PrivateNetwork.unavailableReason()));
        skip.ifPresent(why -> System.out.println("local cluster ITs " + why));
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
    }

    int nearline(String... args) {
        CommandLine cli = NearlineCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    /** {@code check} of the cluster's live cache against change logs, waiting up to {@code wait}: its exit code. */
    int checkLive(Path cluster, String store, String wait, Path... events) {
        List<String> args = new ArrayList<>(List.of("check"));
        for (Path e : events) {
            args.addAll(List.of("--events", e.toString()));
        }
        args.addAll(List.of("--store", store, "--cluster", cluster.toString(), "--wait", wait));
        return nearline(args.toArray(String[]::new));
    }

    /** Four writers racing through {@code transactions} transactions on 60 keys of the cluster's tables. */
    static SqlWorkload.Result sqlWorkload(String kind, Map<String, String> db, int transactions, long seed)
            throws Exception {
        SqlWorkload.Dialect dialect =
                kind.equals("postgres") ? SqlWorkload.Dialect.POSTGRES : SqlWorkload.Dialect.MYSQL;
        return new SqlWorkload(dialect, 4, transactions, 60, 0, seed)
                .run(() -> SourceDatabase.connect(db), Duration.ofSeconds(90));
    }

    /** {@code check --source KIND} of the cluster's live {@code store} against every table. */
    static Printed checkSource(String kind, String store, Path cluster, String... more) {
        List<String> args =
                new ArrayList<>(List.of("check", "--source", kind, "--store", store, "--cluster", cluster.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** A file of the shipped descriptors. */
    static String descriptor(String name) {
        return Path.of("../jobs/deploy", name).toString();
    }

    /** One of the cache updater's conformance scenarios, e.g. cdc/scrambled.jsonl. */
    static Path scenario(String name) {
        return Path.of("../local-cluster/cdc-reference/src/test/resources/scenarios", name)
                .toAbsolutePath();
    }

    /** Until the Kafka Connect connector at {@code connector} ({@code /connectors/NAME}) is in {@code state}, at most a minute. */
    static void awaitConnector(ClusterFile c, String connector, String state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String now = "";
        while (System.nanoTime() < deadline) {
            now = ConnectRest.get(c.connectRest(), connector + "/status")
                    .path("connector")
                    .path("state")
                    .asText();
            if (now.equals(state)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the connector is " + now + ", not " + state);
    }

    /**
     * The cache updater on the cluster's Flink session writing Redis, reading Debezium's stream, with
     * {@code settings} on top (each a {@code --set}); the deploy's exit code.
     */
    int deployDebeziumCacheUpdater(Path cluster, Map<String, String> settings) {
        List<String> args = new ArrayList<>(List.of(
                "deploy",
                descriptor("cache-updater-flink-session-redis.yaml"),
                "--cluster",
                cluster.toString(),
                "--set",
                "cdc.format=debezium-json"));
        settings.forEach((key, value) -> args.addAll(List.of("--set", key + "=" + value)));
        return nearline(args.toArray(String[]::new));
    }
}
