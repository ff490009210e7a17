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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.cli.CliRun;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.store.CacheStore;
import io.nearline.common.testkit.Printed;
import io.nearline.common.testkit.PrometheusServer;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.ConnectRest;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.LiveStores;
import io.nearline.jobs.cluster.database.SourceDatabase;
import io.nearline.localcluster.databases.PostgresServer;
import io.nearline.localcluster.databases.SqlWorkload;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an operator sees: {@code cluster up --postgres --flink --prometheus}, the Debezium connector and
 * the cache updater deployed, writers racing on the three tables; the cluster's Prometheus, with the
 * shipped rules, shows each table's freshness and a {@code consistent-through} that follows the
 * database's commits, and every target it found on its own is up.
 */
class PrometheusClusterIT extends LocalClusterIT {

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void prometheusShowsEachTablesFreshnessAndAWatermarkThatFollowsTheDatabase() throws Exception {
        Optional<String> skip = PostgresServer.skipReason().or(PrometheusServer::skipReason);
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        // the database runs as its package's user (the test runs as root): it must reach the cluster's directory
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        Path cluster = dir.resolve("cluster");
        assertEquals(
                0,
                nearline("cluster", "up", "--postgres", "--flink", "--prometheus", "--dir", cluster.toString()),
                err.toString());
        try {
            ClusterFile c = ClusterFile.read(cluster);
            URI prometheus = URI.create(c.prometheusUrl());
            Printed status = CliRun.of("cluster", "status", "--dir", cluster.toString());
            assertTrue(status.out().contains("prometheus   " + c.prometheusUrl() + " (reachable)"), status.out());

            assertEquals(0, nearline("deploy", descriptor("debezium-postgres.yaml"), "--cluster", cluster.toString()));
            assertEquals(
                    0,
                    nearline(
                            "deploy",
                            descriptor("cache-updater-flink-session.yaml"),
                            "--cluster",
                            cluster.toString(),
                            "--set",
                            "cdc.format=debezium-json"),
                    err.toString());
            Map<String, String> db = c.database("postgres");
            SqlWorkload.Result written = new SqlWorkload(SqlWorkload.Dialect.POSTGRES, 4, 600, 60, 0, 1)
                    .run(() -> SourceDatabase.connect(db), Duration.ofSeconds(90));
            long lastCommit = System.currentTimeMillis() / 1000;
            assertTrue(written.committed() > 300, written.toString());

            Awaitility.await()
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> {
                        Set<String> fresh = new HashSet<>();
                        for (JsonNode s : ClusterPrometheus.query(prometheus, "nearline_freshness_seconds_count > 0")) {
                            fresh.add(s.path("metric").path("table").asText());
                        }
                        assertEquals(new HashSet<>(ClusterFile.tables(db)), fresh, "tables with freshness counted");
                        JsonNode p99 = ClusterPrometheus.query(
                                prometheus,
                                "histogram_quantile(0.99, sum by (le) (nearline_freshness_seconds_bucket))");
                        assertTrue(
                                p99.size() == 1
                                        && p99.get(0).path("value").get(1).asDouble() < 60,
                                "p99 " + p99);
                        JsonNode through =
                                ClusterPrometheus.query(prometheus, "min(nearline_consistent_through_seconds)");
                        long watermark = through.get(0).path("value").get(1).asLong();
                        assertTrue(
                                Math.abs(watermark - lastCommit) < 30,
                                "consistent-through " + watermark + ", the last commit at " + lastCommit);
                    });
            for (JsonNode target : ClusterPrometheus.query(prometheus, "up")) {
                assertEquals(
                        "1",
                        target.path("value").get(1).asText(),
                        "a target the cluster's discovery files name is down: " + target);
            }
            assertTrue(
                    ClusterPrometheus.query(prometheus, "up{process=\"connect\"}")
                                    .size()
                            == 1,
                    "the Connect worker found");

            verifyFindsWhatDiffersAndNothingInFlight(cluster, c, db, prometheus);
            noDatabasePasswordAtRest(cluster, db);
        } finally {
            assertEquals(0, nearline("cluster", "down", "--dir", cluster.toString()));
        }
    }

    /**
     * The database password Debezium's connector logs in with is nowhere at rest but in its own file and
     * the worker's secrets file: not in Connect's config topic (Kafka's segments), the worker's or the
     * job's logs, PostgreSQL's files (which keep a hash) or the deploys' files. The control: the same
     * search finds it in the two files kept for it.
     */
    private static void noDatabasePasswordAtRest(Path cluster, Map<String, String> db) throws IOException {
        Path passwordFile = Path.of(db.get("password-file"));
        Path workerSecrets = cluster.resolve("connect/secrets.properties");
        SecretSearch search = new SecretSearch(
                Map.of("the database password", Files.readString(passwordFile).strip()));
        Set<Path> kept = Set.of(
                passwordFile.toAbsolutePath().normalize(),
                workerSecrets.toAbsolutePath().normalize());
        assertEquals(List.of(), search.findIn(List.of(cluster), kept), "a password at rest");
        assertEquals(
                2, search.findIn(List.of(passwordFile, workerSecrets), Set.of()).size(), "the control");
    }

    /**
     * The verifier under live writes reports nothing (every difference it sees is a change in flight);
     * a row changed in the cache behind the job's back is reported divergent, on its endpoint, where the
     * cluster's Prometheus finds it and the shipped alert takes it up.
     */
    private void verifyFindsWhatDiffersAndNothingInFlight(
            Path cluster, ClusterFile c, Map<String, String> db, URI prometheus) throws Exception {
        CompletableFuture<SqlWorkload.Result> writers = CompletableFuture.supplyAsync(() -> {
            try {
                return new SqlWorkload(SqlWorkload.Dialect.POSTGRES, 4, 600, 40, 40, 2)
                        .run(() -> SourceDatabase.connect(db), Duration.ofSeconds(60));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // the verifier as deployed (jobs/deploy/verifier-postgres.yaml), a slice of 50 rows of each table a
        // round: a pass through the 196 keys takes four rounds
        String verifier = "nearline-verifier-postgres";
        assertEquals(
                0,
                nearline(
                        "deploy",
                        descriptor("verifier-postgres.yaml"),
                        "--cluster",
                        cluster.toString(),
                        "--set",
                        "every=3s",
                        "--set",
                        "keys-per-round=50",
                        "--set",
                        "in-flight=30s"),
                err.toString());
        assertTrue(CliRun.of("jobs", "list", "--cluster", cluster.toString())
                .out()
                .matches("(?s).*verifier:" + verifier + " +" + verifier + " +RUNNING.*"));
        assertTrue(writers.get(2, TimeUnit.MINUTES).committed() > 100, "writers ran alongside");
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> ClusterPrometheus.query(
                                        prometheus, "nearline_verify_checked_total{job=\"" + verifier + "\"} > 100")
                                .size()
                        == ClusterFile.tables(db).size());
        JsonNode worst = ClusterPrometheus.query(
                prometheus, "max_over_time(nearline_verify_divergent{job=\"" + verifier + "\"}[5m])");
        assertEquals(ClusterFile.tables(db).size(), worst.size(), "scraped for every table: " + worst);
        for (JsonNode table : worst) {
            assertEquals("0", table.path("value").get(1).asText(), "no false alarm under live writes: " + table);
        }
        // the dashboard's verifier panel, which the Flink job's IT cannot feed: it has data from this one
        String dashboard = Files.readString(Path.of("../jobs/monitoring/nearline-dashboard.json"));
        int verifierQueries = 0;
        for (String query : PrometheusServer.dashboardQueries(dashboard)) {
            if (query.contains("nearline_verify_")) {
                verifierQueries++;
                assertFalse(
                        ClusterPrometheus.query(prometheus, query).isEmpty(), "dashboard query without data: " + query);
            }
        }
        assertTrue(verifierQueries > 0, "the dashboard has a verifier panel");
        String log = Files.readString(cluster.resolve("logs/" + verifier + ".log"));
        assertTrue(
                java.util.regex.Pattern.compile("[1-9][0-9]* in flight")
                        .matcher(log)
                        .find(),
                "changes seen in flight while the writers ran: " + log);
        assertFalse(log.contains("DIVERGENT"), log);
        long pid = Long.parseLong(Files.readString(cluster.resolve("services/" + verifier + ".pid"))
                .strip());
        assertEquals(0, nearline("jobs", "stop", "verifier:" + verifier, "--cluster", cluster.toString()));
        assertFalse(Daemons.alive(pid, cluster), "the deployed verifier ended");
        assertFalse(Files.exists(cluster.resolve("prometheus/targets/" + verifier + ".json")), "its target gone");

        // a row of items changed in the cache behind the job's back: same version, another qty
        String planted;
        try (CacheStore cache = LiveStores.open("couchbase", c)) {
            planted = "public.items:" + firstItem(db);
            CacheKey key = CacheKey.of(planted);
            CacheRecord held =
                    CacheRecordCodec.decode(cache.get(key).orElseThrow().value());
            ObjectNode row = (ObjectNode) new ObjectMapper().readTree(held.payload());
            row.put("qty", row.path("qty").asLong() + 1000);
            cache.upsert(
                    key,
                    CacheRecordCodec.encode(CacheRecord.upsert(
                            held.version(), held.sourcePartition(), new ObjectMapper().writeValueAsBytes(row))),
                    Duration.ofHours(1));
        }
        Path found = dir.resolve("verify-planted.json");
        // the source now idle, the watermark stands at the last commit: the allowance decides; the verifier
        // runs on while the cluster's Prometheus scrapes it and the shipped alert fires
        long planting0 = System.nanoTime();
        CompletableFuture<Printed> planting =
                CompletableFuture.supplyAsync(() -> CliRun.of(verify(cluster, found, "75s", "6s")));
        Awaitility.await()
                .atMost(Duration.ofSeconds(70))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> ClusterPrometheus.query(
                                        prometheus, "ALERTS{alertname=\"NearlineCacheDiverged\",alertstate=\"firing\"}")
                                .size()
                        == 1);
        System.err.printf(
                "NearlineCacheDiverged firing %.0f s after the verifier started (allowance 6 s)%n",
                (System.nanoTime() - planting0) / 1e9);
        Printed planted0 = planting.get(2, TimeUnit.MINUTES);
        System.err.println(planted0.out());
        assertEquals(1, planted0.exit(), planted0.out());
        assertTrue(planted0.out().contains("DIVERGENT public.items " + planted), planted0.out());
        assertEquals(
                1,
                new ObjectMapper()
                        .readTree(Files.readString(found))
                        .path("divergentKeys")
                        .asLong());

        repairPutsThePlantedKeyRight(cluster, c, db, planted);
        aChangeTheJobNeverReceivedIsFound(cluster, c, db);
    }

    /** {@code verify --repair} writes the database's row over the planted one, at its read's version. */
    private void repairPutsThePlantedKeyRight(Path cluster, ClusterFile c, Map<String, String> db, String planted)
            throws Exception {
        Path repaired = dir.resolve("verify-repair.json");
        String[] args = verify(cluster, repaired, "12s", "3s");
        String[] withRepair = java.util.Arrays.copyOf(args, args.length + 1);
        withRepair[args.length] = "--repair";
        Printed repair = CliRun.of(withRepair);
        System.err.println(repair.out());
        assertEquals(0, repair.exit(), "the last round has nothing left to repair: " + repair.out());
        assertTrue(repair.out().contains("REPAIR public.items " + planted + ": applied"), repair.out());
        assertEquals(
                1,
                new ObjectMapper()
                        .readTree(Files.readString(repaired))
                        .path("repairedKeys")
                        .asLong());
        String id = planted.substring(planted.lastIndexOf(':') + 1);
        try (CacheStore cache = LiveStores.open("couchbase", c);
                Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement();
                ResultSet r = s.executeQuery("SELECT qty FROM items WHERE id = " + id)) {
            r.next();
            CacheRecord held = CacheRecordCodec.decode(
                    cache.get(CacheKey.of(planted)).orElseThrow().value());
            assertEquals(
                    r.getLong(1),
                    new ObjectMapper().readTree(held.payload()).path("qty").asLong(),
                    "the cache holds the database's qty again");
        }
    }

    /**
     * A row changed while Debezium's connector is paused never reaches the job: the verifier reports it once
     * the allowance is up, and no more once the connector is resumed and the change arrives.
     */
    private void aChangeTheJobNeverReceivedIsFound(Path cluster, ClusterFile c, Map<String, String> db)
            throws Exception {
        String connector = "/connectors/nearline-debezium-postgres";
        ConnectRest.put(c.connectRest(), connector + "/pause", Map.of());
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> ConnectRest.get(
                        c.connectRest(), connector + "/status")
                .path("connector")
                .path("state")
                .asText()
                .equals("PAUSED"));
        String id = firstItem(db);
        try (Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement()) {
            s.executeUpdate("UPDATE items SET qty = qty + 7 WHERE id = " + id);
        }
        Printed unseen = CliRun.of(verify(cluster, dir.resolve("verify-paused.json"), "15s", "6s"));
        System.err.println(unseen.out());
        assertEquals(1, unseen.exit(), unseen.out());
        assertTrue(unseen.out().contains("DIVERGENT public.items public.items:" + id), unseen.out());

        ConnectRest.put(c.connectRest(), connector + "/resume", Map.of());
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> {
                    Printed caughtUp = CliRun.of(verify(cluster, dir.resolve("verify-resumed.json"), "1s", "60s"));
                    assertTrue(caughtUp.out().contains("ms, 0 divergent, 0 in flight"), caughtUp.out());
                });
    }

    private static String[] verify(Path cluster, Path summary, String duration, String inFlight, String... more) {
        List<String> args = List.of(
                "verify",
                "--source",
                "postgres",
                "--cluster",
                cluster.toString(),
                "--every",
                "3s",
                "--in-flight",
                inFlight,
                "--duration",
                duration,
                "--summary-json",
                summary.toString());
        List<String> all = new java.util.ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static String firstItem(Map<String, String> db) throws Exception {
        try (Connection conn = SourceDatabase.connect(db);
                Statement s = conn.createStatement();
                ResultSet r = s.executeQuery("SELECT min(id) FROM items")) {
            r.next();
            return r.getString(1);
        }
    }
}
