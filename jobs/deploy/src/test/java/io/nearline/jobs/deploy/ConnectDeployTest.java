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
package io.nearline.jobs.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.database.DebeziumSignals;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connector configs a deploy to Kafka Connect submits, built from the shipped descriptors and a cluster file. */
class ConnectDeployTest {

    @TempDir
    Path dir;

    private ClusterFile cluster(Map<String, String> postgres) {
        return new ClusterFile(
                dir,
                "10.0.0.2:9092",
                Map.of(),
                "redis",
                Map.of("servers", "redis://10.0.0.2:6379"),
                null,
                null,
                null,
                null,
                null,
                null,
                "nearline-0001",
                "10.0.0.2",
                "http://10.0.0.2:8083",
                null,
                Map.of("postgres", postgres),
                Map.of());
    }

    /** The connector captures exactly the tables the cluster file lists, whatever else the database has. */
    @Test
    void theDebeziumConnectorCapturesEveryListedTableAndNoOther() {
        Map<String, String> postgres = Map.of(
                "host", "10.0.0.2",
                "port", "5432",
                "database", "shop",
                "user", "nearline",
                "tables", "public.items,public.orders,public.item_links");
        for (String shipped : new String[] {"debezium-postgres.yaml", "debezium-postgres-unwrapped.yaml"}) {
            Descriptor d = Descriptor.read(Path.of("../../jobs/deploy", shipped));
            Map<String, String> config = ConnectDeploy.config(d, cluster(postgres), Map.of());
            boolean signals = DebeziumSignals.takenBy(config);
            assertEquals(
                    "public.items,public.orders,public.item_links" + (signals ? ",public.debezium_signal" : ""),
                    config.get("table.include.list"),
                    shipped + ": the listed tables, and the signalling table where it takes signals");
            assertTrue(config.get("database.password").startsWith("${file:"), "the password by reference only");
        }
        Descriptor unwrapped = Descriptor.read(Path.of("../../jobs/deploy/debezium-postgres-unwrapped.yaml"));
        Map<String, String> config = ConnectDeploy.config(unwrapped, cluster(postgres), Map.of());
        assertEquals("rewrite", config.get("transforms.unwrap.delete.tombstone.handling.mode"));
        assertEquals(
                "op,source.connector,source.sequence,lsn,source.ts_ms,source.schema,source.table",
                config.get("transforms.unwrap.add.fields"));
    }

    /**
     * The shipped descriptors take resync's signals through the signalling table, which the deploy adds
     * to the captured tables, and route every table's topic to the cache's but the signalling table's.
     */
    @Test
    void theSignallingTableIsCapturedButNeverRoutedToTheCache() {
        Map<String, String> postgres = Map.of(
                "host", "10.0.0.2", "port", "5432", "database", "shop", "user", "nearline", "tables", "public.items");
        Map<String, String> config = ConnectDeploy.config(
                Descriptor.read(Path.of("../../jobs/deploy/debezium-postgres.yaml")), cluster(postgres), Map.of());
        assertTrue(DebeziumSignals.takenBy(config));
        assertEquals("public.debezium_signal", config.get("signal.data.collection"));
        assertEquals("nearline-pg.notifications", config.get("notification.sink.topic.name"));
        String route = config.get("transforms.route.regex");
        assertTrue("nearline-pg.public.items".matches(route), route);
        assertTrue("nearline-pg.public.debezium_signal_log".matches(route), "only that table stays out: " + route);
        assertFalse("nearline-pg.public.debezium_signal".matches(route), route);
        assertFalse("nearline-pg.notifications".matches(route), route);

        Descriptor mysql = Descriptor.read(Path.of("../../jobs/deploy/debezium-mysql.yaml"));
        String mysqlRoute = mysql.settings().get("transforms.route.regex");
        assertTrue("nearline-mysql.shop.items".matches(mysqlRoute), mysqlRoute);
        assertFalse("nearline-mysql.shop.debezium_signal".matches(mysqlRoute), mysqlRoute);
        assertFalse("nearline-mysql.notifications".matches(mysqlRoute), mysqlRoute);
        assertFalse("nearline-mysql".matches(mysqlRoute), "the schema changes' topic stays out: " + mysqlRoute);
    }

    /** The cache sink reading that stream keys rows by the same tables. */
    @Test
    void theCacheSinkTakesTheSameTables() {
        Descriptor sink = Descriptor.read(Path.of("../../jobs/deploy/cache-updater-connect.yaml"));
        Map<String, String> config = ConnectDeploy.config(
                sink, cluster(Map.of("tables", "public.items,public.orders")), Map.of("cdc.format", "debezium-json"));
        assertEquals("public.items,public.orders", config.get("cdc.debezium.tables"));
    }
}
