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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterFileTest {

    @TempDir
    Path dir;

    private ClusterFile file(String connect, Map<String, Map<String, String>> databases) {
        return file(connect, databases, Map.of());
    }

    private ClusterFile file(
            String connect, Map<String, Map<String, String>> databases, Map<String, String> kafkaSecurity) {
        return new ClusterFile(
                dir,
                "10.0.0.2:9092",
                kafkaSecurity,
                "redis",
                Map.of("servers", "redis://10.0.0.2:6379"),
                null,
                null,
                null,
                null,
                null,
                "hdfs://10.0.0.1:8020/nearline/packages",
                "nearline-0001",
                "10.0.0.2",
                connect,
                null,
                databases,
                Map.of("kafka", 42L));
    }

    @Test
    void aDatabaseAndTheConnectWorkerSurviveAWriteAndARead() {
        Map<String, String> postgres =
                Map.of("host", "10.0.0.2", "port", "5432", "tables", "public.items,public.orders");
        file("http://10.0.0.2:8083", Map.of("postgres", postgres)).write();
        ClusterFile read = ClusterFile.read(dir);
        assertEquals("http://10.0.0.2:8083", read.connectRest());
        assertEquals(postgres, read.database("postgres"));
        // what SourceDatabase and 'check --source' read is the same section
        assertTrue(read.databases().keySet().containsAll(java.util.Set.of("postgres")));
    }

    /**
     * A cache updater of Debezium's stream takes the database section's tables and key rule, so that the
     * keys it writes are those check --source reads; its own settings win, and an Avro job is left alone.
     */
    @Test
    void aDebeziumCacheUpdaterTakesTheDatabasesTablesAndKeyRule() {
        Map<String, String> postgres = Map.of(
                "tables", "public.items, public.orders",
                "key-prefix", "shop/",
                "table.public.orders.key-fields", "order_no");
        ClusterFile c = file(null, Map.of("postgres", postgres));
        Map<String, String> debezium = c.jobSettings(Map.of("cdc.format", "debezium-json"), Map.of());
        assertEquals("public.items,public.orders", debezium.get("cdc.debezium.tables"));
        assertEquals("shop/", debezium.get("cdc.debezium.key-prefix"));
        assertEquals("order_no", debezium.get("cdc.debezium.table.public.orders.key-fields"));
        Map<String, String> own =
                c.jobSettings(Map.of("cdc.format", "debezium-json"), Map.of("cdc.debezium.tables", "public.items"));
        assertEquals("public.items", own.get("cdc.debezium.tables"));
        assertNull(own.get("cdc.debezium.key-prefix"), "a job naming its tables keeps its own key rule");
        assertNull(c.jobSettings(Map.of(), Map.of()).get("cdc.debezium.tables"), "an Avro job");
        assertEquals(java.util.List.of("public.items", "public.orders"), ClusterFile.tables(postgres));
        assertEquals(java.util.List.of("public.items"), ClusterFile.tables(Map.of("table", "public.items")));
    }

    @Test
    void withoutThemTheCommandsThatNeedThemSayHowToGetThem() {
        file(null, Map.of()).write();
        ClusterFile read = ClusterFile.read(dir);
        assertNull(read.connectRestUrl());
        ClusterException noConnect = assertThrows(ClusterException.class, read::connectRest);
        assertTrue(noConnect.getMessage().contains("cluster up --connect"), noConnect.getMessage());
        ClusterException noDatabase = assertThrows(ClusterException.class, () -> read.database("mysql"));
        assertTrue(noDatabase.getMessage().contains("cluster up --mysql"), noDatabase.getMessage());
    }

    @Test
    void kafkaSecurityKeysAreTheJobsKafkaSettingsAndTheToolsClient() {
        Map<String, String> security = new java.util.LinkedHashMap<>();
        security.put("security.protocol", "sasl-ssl");
        security.put("sasl.username", "nearline");
        security.put("sasl.password", "env:NEARLINE_TEST_KAFKA_PASSWORD");
        security.put("ssl.truststore", "/etc/kafka/ca.p12");
        file(null, Map.of(), security).write();
        ClusterFile read = ClusterFile.read(dir);
        assertEquals(security, read.kafkaSecurity());
        assertEquals("sasl-ssl", read.jobSettings().get("kafka.security.protocol"));
        assertEquals("env:NEARLINE_TEST_KAFKA_PASSWORD", read.jobSettings().get("kafka.sasl.password"));
        assertEquals("10.0.0.2:9092", read.kafka().servers());
        assertEquals("sasl-ssl (plain, user nearline)", read.kafka().security().describe());

        // a user without a password is refused when a command reaches for the broker, naming the section
        security.remove("sasl.password");
        file(null, Map.of(), security).write();
        ClusterException refused =
                assertThrows(ClusterException.class, () -> ClusterFile.read(dir).kafka());
        assertTrue(
                refused.getMessage().contains("section kafka")
                        && refused.getMessage().contains("kafka.sasl.password"),
                refused.getMessage());
    }

    @Test
    void packagesAreAUriAndAnEarlierPackageDirReadsAsItsFileUri() throws Exception {
        file(null, Map.of()).write();
        assertEquals(
                "hdfs://10.0.0.1:8020/nearline/packages", ClusterFile.read(dir).packages());

        java.nio.file.Files.writeString(
                dir.resolve(ClusterFile.NAME),
                "kafka:\n  bootstrap-servers: k:9092\nstore: redis\nredis:\n  servers: redis://r\n"
                        + "package-dir: /srv/packages\n");
        assertEquals("file:///srv/packages", ClusterFile.read(dir).packages());

        java.nio.file.Files.writeString(
                dir.resolve(ClusterFile.NAME), "kafka:\n  bootstrap-servers: k:9092\nstore: redis\n");
        ClusterException none =
                assertThrows(ClusterException.class, () -> ClusterFile.read(dir).packageStore());
        assertTrue(none.getMessage().contains("--packages hdfs://"), none.getMessage());
    }
}
