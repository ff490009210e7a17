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
package io.nearline.localcluster.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.Printed;
import io.nearline.jobs.cluster.ClusterFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cluster init}: what it writes, read back as every command reads it, and what it refuses in one line. */
class ClusterInitTest {

    @TempDir
    Path dir;

    private Printed init(String... more) {
        String[] args = new String[more.length + 3];
        args[0] = "init";
        args[1] = "--dir";
        args[2] = dir.resolve("c").toString();
        System.arraycopy(more, 0, args, 3, more.length);
        return ClusterCli.run(args);
    }

    /** A database and its tables: the section check --source, bootstrap run --from and the deploys read. */
    @Test
    void aDatabaseWithItsTablesReadsBackAsItsSection() throws Exception {
        Path password = Files.writeString(dir.resolve("db.password"), "secret");
        Printed run = init(
                "--kafka",
                "k1:9092",
                "--redis",
                "redis://r1:6379",
                "--database",
                "jdbc:postgresql://db1:5432/shop",
                "--database-user",
                "nearline_check",
                "--database-password-file",
                password.toString(),
                "--tables",
                "public.customers, public.orders");
        assertEquals(0, run.exit(), run.out());
        ClusterFile c = ClusterFile.read(dir.resolve("c"));
        java.util.Map<String, String> section = c.database("postgres");
        assertEquals("db1", section.get("host"));
        assertEquals("5432", section.get("port"));
        assertEquals("shop", section.get("database"));
        assertEquals(java.util.List.of("public.customers", "public.orders"), ClusterFile.tables(section));
        assertTrue(
                !Files.readString(dir.resolve("c/cluster.yaml")).contains("secret"), "the password stays in its file");

        Printed unqualified = ClusterCli.run(
                "init",
                "--dir",
                dir.resolve("d").toString(),
                "--kafka",
                "k1:9092",
                "--redis",
                "redis://r1:6379",
                "--database",
                "jdbc:mysql://db1:3306/shop",
                "--database-user",
                "u",
                "--tables",
                "orders");
        assertEquals(2, unqualified.exit(), unqualified.out());
        assertTrue(unqualified.out().contains("'orders' must be SCHEMA.TABLE"), unqualified.out());
    }

    @Test
    void addressesOnlyReadBackAsAClusterFile() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("hadoop"));
        Files.writeString(
                conf.resolve("yarn-site.xml"),
                "<configuration><property><name>yarn.resourcemanager.address</name><value>rm:8032</value></property>"
                        + "<property><name>yarn.resourcemanager.webapp.address</name><value>rm:8088</value>"
                        + "</property></configuration>");
        Printed run = init(
                "--kafka",
                "k1:9092",
                "--flink-rest",
                "http://jm:8081",
                "--redis",
                "redis://r1:6379",
                "--redis-password",
                "env:REDIS_PASSWORD",
                "--yarn-conf",
                conf.toString(),
                "--packages",
                "file:///srv/packages");
        assertEquals(0, run.exit(), run.out());
        ClusterFile c = ClusterFile.read(dir.resolve("c"));
        assertEquals("k1:9092", c.kafkaBootstrapServers());
        assertEquals("redis", c.store());
        assertEquals("env:REDIS_PASSWORD", c.jobSettings().get("redis.password"));
        assertEquals("redis://r1:6379", c.jobSettings().get("redis.servers"));
        assertEquals("http://rm:8088", c.yarnWebUrl());
        assertEquals("rm:8032", c.yarnRmAddress());
        assertEquals("file:///srv/packages", c.packages());
        assertNull(c.namespace());
        assertTrue(c.processes().isEmpty());
        Printed down = ClusterCli.run("down", "--dir", dir.resolve("c").toString());
        assertEquals(0, down.exit(), down.out());
        assertTrue(down.out().contains("Nearline did not start"), down.out());
    }

    @Test
    void refusesWhatItCannotWriteInOneLine() {
        Printed plain = init("--kafka", "k:9092", "--couchbase", "couchbase://cb", "--couchbase-password", "hunter2");
        assertEquals(2, plain.exit(), plain.out());
        assertTrue(plain.out().contains("must be a reference"), plain.out());
        assertTrue(!Files.exists(dir.resolve("c/cluster.yaml")), "nothing written");

        Printed hdfs = init("--kafka", "k:9092", "--redis", "redis://r", "--packages", "hdfs://nn/packages");
        assertEquals(2, hdfs.exit(), hdfs.out());
        assertTrue(hdfs.out().contains("needs --yarn-conf DIR"), hdfs.out());

        Printed notUri = init("--kafka", "k:9092", "--redis", "redis://r", "--packages", "/srv/packages");
        assertEquals(2, notUri.exit(), notUri.out());
        assertTrue(notUri.out().contains("is not a URI"), notUri.out());

        Printed noCache = init("--kafka", "k:9092");
        assertEquals(2, noCache.exit(), noCache.out());
        assertTrue(noCache.out().contains("--couchbase CONNECTION or --redis URIS"), noCache.out());

        Printed noYarnSite = init("--kafka", "k:9092", "--redis", "redis://r", "--yarn-conf", dir.toString());
        assertEquals(2, noYarnSite.exit(), noYarnSite.out());
        assertTrue(noYarnSite.out().contains("has no yarn-site.xml"), noYarnSite.out());

        assertEquals(0, init("--kafka", "k:9092", "--redis", "redis://r").exit());
        Printed again = init("--kafka", "k:9092", "--redis", "redis://r");
        assertEquals(2, again.exit(), again.out());
        assertTrue(again.out().contains("exists"), again.out());
    }

    @Test
    void aYarnSiteNamingOnlyTheHostGivesHadoopsDefaultPortsAndHdfsZooKeeperAndFlinkStateAreKept() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("hadoop"));
        Files.writeString(
                conf.resolve("yarn-site.xml"),
                "<configuration><property><name>yarn.resourcemanager.hostname</name><value>rm</value></property>"
                        + "</configuration>");
        Printed run = init(
                "--kafka",
                "k:9092",
                "--redis",
                "redis://r",
                "--yarn-conf",
                conf.toString(),
                "--packages",
                "hdfs://nn:8020/apps/nearline",
                "--zookeeper",
                "zk1:2181,zk2:2181/flink",
                "--flink-state",
                "hdfs://nn:8020/flink/");
        assertEquals(0, run.exit(), run.out());
        ClusterFile c = ClusterFile.read(dir.resolve("c"));
        assertEquals("rm:8032", c.yarnRmAddress());
        assertEquals("http://rm:8088", c.yarnWebUrl());
        assertEquals("hdfs://nn:8020/apps/nearline", c.packages());
        assertTrue(c.packageStore().remote());
        assertEquals("zk1:2181,zk2:2181/flink", c.zookeeperQuorum());
        assertEquals("hdfs://nn:8020/flink", c.flinkState());
    }
}
