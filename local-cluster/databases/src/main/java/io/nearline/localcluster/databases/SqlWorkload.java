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
package io.nearline.localcluster.databases;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Concurrent writers committing a race-prone workload to the three tables of {@link #TABLES} as SQL
 * transactions, one connector's whole stream: on {@code items} (id, name, qty, price, note, updated_at)
 * updates, upserts, deletes, plain inserts racing on one key (the loser's duplicate-key error rolls its
 * transaction back) and primary-key changes; on {@code orders}, whose ids are the same numbers as the
 * items', upserts, updates and deletes; on {@code item_links}, keyed by two columns (item_id, tag_id),
 * upserts and deletes. A transaction mixes tables, and some are rolled back on purpose. Keys are
 * {@code 1..keys}, drawn so that writers collide. Bounded in transactions and in time; paced to
 * {@code rate} transactions a second (0: as fast as the database takes them).
 */
public record SqlWorkload(Dialect dialect, int writers, int transactions, int keys, int rate, long seed) {

    /** The tables the workload writes, unqualified, and how to create them (the same SQL on both databases). */
    public static final Map<String, String> TABLES = tables();

    private static Map<String, String> tables() {
        Map<String, String> t = new LinkedHashMap<>();
        t.put(
                "items",
                "CREATE TABLE IF NOT EXISTS items (id BIGINT PRIMARY KEY, name VARCHAR(200), qty INTEGER, "
                        + "price DECIMAL(12,2), note TEXT, updated_at TIMESTAMP(6))");
        t.put(
                "orders",
                "CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, item_id BIGINT, qty INTEGER, "
                        + "status VARCHAR(20))");
        t.put(
                "item_links",
                "CREATE TABLE IF NOT EXISTS item_links (item_id BIGINT, tag_id INTEGER, weight INTEGER, "
                        + "PRIMARY KEY (item_id, tag_id))");
        return java.util.Collections.unmodifiableMap(t);
    }

    /** Tags per item in {@code item_links}: its keys are {@code (1..keys, 1..TAGS)}. */
    public static final int TAGS = 4;

    /** Creates the tables that are not there yet. */
    public static void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String ddl : TABLES.values()) {
                s.execute(ddl);
            }
        }
    }

    /** How the two databases spell an upsert. */
    public enum Dialect {
        POSTGRES,
        MYSQL;

        /** An upsert of {@code columns} into {@code table} whose primary key is {@code key}. */
        String upsert(String table, String key, String... columns) {
            String names = String.join(", ", columns);
            String marks = String.join(", ", java.util.Collections.nCopies(columns.length, "?"));
            List<String> sets = new ArrayList<>();
            for (String column : columns) {
                if (!List.of(key.split(",\\s*")).contains(column)) {
                    sets.add(column + (this == POSTGRES ? " = EXCLUDED." + column : " = VALUES(" + column + ")"));
                }
            }
            return "INSERT INTO " + table + " (" + names + ") VALUES (" + marks + ") "
                    + (this == POSTGRES ? "ON CONFLICT (" + key + ") DO UPDATE SET " : "ON DUPLICATE KEY UPDATE ")
                    + String.join(", ", sets);
        }
    }

    private static final String[] ITEM_COLUMNS = {"id", "name", "qty", "price", "note", "updated_at"};

    /** What the writers did: transactions committed, rolled back on purpose, lost to a race. */
    public record Result(long committed, long rolledBack, long conflicts) {}

    /** Gives each writer its own connection. */
    public interface Connections {
        Connection open() throws Exception;
    }

    public Result run(Connections connections, Duration limit) throws Exception {
        AtomicLong committed = new AtomicLong();
        AtomicLong rolledBack = new AtomicLong();
        AtomicLong conflicts = new AtomicLong();
        long deadline = System.nanoTime() + limit.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                int share = transactions / writers + (w < transactions % writers ? 1 : 0);
                Callable<Void> job = () -> {
                    Random random = new Random(seed * 31 + writer);
                    long start = System.nanoTime();
                    // each writer its share of the rate: transaction t is due t periods after the start
                    long period = rate == 0 ? 0 : 1_000_000_000L * writers / rate;
                    try (Connection c = connections.open()) {
                        c.setAutoCommit(false);
                        for (int t = 0; t < share && System.nanoTime() < deadline; t++) {
                            long wait = start + t * period - System.nanoTime();
                            if (wait > 0) {
                                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                            }
                            try {
                                if (transaction(c, random)) {
                                    c.commit();
                                    committed.incrementAndGet();
                                } else {
                                    c.rollback();
                                    rolledBack.incrementAndGet();
                                }
                            } catch (SQLException e) {
                                // a duplicate key or a deadlock between writers: the race the workload is for
                                c.rollback();
                                conflicts.incrementAndGet();
                            }
                        }
                    }
                    return null;
                };
                done.add(pool.submit(job));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(committed.get(), rolledBack.get(), conflicts.get());
    }

    /** One transaction of one to three statements, on any of the tables; false when it is to be rolled back. */
    private boolean transaction(Connection c, Random random) throws SQLException {
        int statements = 1 + random.nextInt(3);
        for (int i = 0; i < statements; i++) {
            long id = 1 + random.nextInt(keys);
            int table = random.nextInt(100);
            if (table < 60) {
                items(c, id, random);
            } else if (table < 85) {
                order(c, id, random);
            } else {
                link(c, id, 1 + random.nextInt(TAGS), random);
            }
        }
        return random.nextInt(100) >= 5;
    }

    /** An order of the same id as an item: upserted, updated or deleted. */
    private void order(Connection c, long id, Random random) throws SQLException {
        int kind = random.nextInt(100);
        String sql = kind < 50
                ? dialect.upsert("orders", "id", "item_id", "qty", "status", "id")
                : kind < 80 ? "UPDATE orders SET item_id = ?, qty = ?, status = ? WHERE id = ?" : null;
        if (sql == null) {
            deleteWhere(c, "DELETE FROM orders WHERE id = ?", id);
            return;
        }
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, 1 + random.nextInt(keys));
            s.setInt(2, random.nextInt(10));
            s.setString(3, random.nextBoolean() ? "open" : "paid");
            s.setLong(4, id);
            s.executeUpdate();
        }
    }

    /** A link of an item to a tag, keyed by both: upserted or deleted. */
    private void link(Connection c, long item, int tag, Random random) throws SQLException {
        if (random.nextInt(100) < 30) {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM item_links WHERE item_id = ? AND tag_id = ?")) {
                s.setLong(1, item);
                s.setInt(2, tag);
                s.executeUpdate();
            }
            return;
        }
        try (PreparedStatement s =
                c.prepareStatement(dialect.upsert("item_links", "item_id, tag_id", "weight", "item_id", "tag_id"))) {
            s.setInt(1, random.nextInt(100));
            s.setLong(2, item);
            s.setInt(3, tag);
            s.executeUpdate();
        }
    }

    /** A statement on {@code items}. */
    private void items(Connection c, long id, Random random) throws SQLException {
        int kind = random.nextInt(100);
        if (kind < 35) {
            update(c, id, random);
        } else if (kind < 60) {
            write(c, dialect.upsert("items", "id", ITEM_COLUMNS), id, random);
        } else if (kind < 75) {
            delete(c, id);
        } else if (kind < 90) {
            // a plain insert: where the key exists, or another writer inserts it first, it fails
            write(
                    c,
                    "INSERT INTO items (id, name, qty, price, note, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                    id,
                    random);
        } else {
            moveKey(c, id, 1 + random.nextInt(keys));
        }
    }

    private static void write(Connection c, String sql, long id, Random random) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, id);
            s.setString(2, "name-" + random.nextInt(1000));
            s.setInt(3, random.nextInt(100));
            s.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(100_000), 2));
            s.setString(5, random.nextBoolean() ? null : "note " + random.nextLong());
            s.setTimestamp(6, Timestamp.from(Instant.now()));
            s.executeUpdate();
        }
    }

    private static void update(Connection c, long id, Random random) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("UPDATE items SET qty = ?, price = ?, updated_at = ? WHERE id = ?")) {
            s.setInt(1, random.nextInt(100));
            s.setBigDecimal(2, BigDecimal.valueOf(random.nextInt(100_000), 2));
            s.setTimestamp(3, Timestamp.from(Instant.now()));
            s.setLong(4, id);
            s.executeUpdate();
        }
    }

    private static void delete(Connection c, long id) throws SQLException {
        deleteWhere(c, "DELETE FROM items WHERE id = ?", id);
    }

    private static void deleteWhere(Connection c, String sql, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, id);
            s.executeUpdate();
        }
    }

    /** A primary-key change: Debezium gives a delete of the old key and a create of the new. */
    private static void moveKey(Connection c, long from, long to) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE items SET id = ? WHERE id = ?")) {
            s.setLong(1, to);
            s.setLong(2, from);
            s.executeUpdate();
        }
    }
}
