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
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Concurrent writers committing a race-prone workload to the table {@code items} (id, name, qty,
 * price, note, updated_at) as SQL transactions: updates, upserts, deletes, plain inserts racing on one
 * key (the loser's duplicate-key error rolls its transaction back), primary-key changes, and
 * transactions rolled back on purpose. Keys are {@code 1..keys}, drawn so that writers collide.
 * Bounded in transactions and in time; paced to {@code rate} transactions a second (0: as fast as the
 * database takes them).
 */
public record SqlWorkload(Dialect dialect, int writers, int transactions, int keys, int rate, long seed) {

    /** How the two databases spell an upsert. */
    public enum Dialect {
        POSTGRES("INSERT INTO items (id, name, qty, price, note, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                + "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, qty = EXCLUDED.qty, price = EXCLUDED.price, "
                + "note = EXCLUDED.note, updated_at = EXCLUDED.updated_at"),
        MYSQL("INSERT INTO items (id, name, qty, price, note, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE name = VALUES(name), qty = VALUES(qty), price = VALUES(price), "
                + "note = VALUES(note), updated_at = VALUES(updated_at)");

        final String upsert;

        Dialect(String upsert) {
            this.upsert = upsert;
        }
    }

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

    /** One transaction of one to three statements; false when it is to be rolled back. */
    private boolean transaction(Connection c, Random random) throws SQLException {
        int statements = 1 + random.nextInt(3);
        for (int i = 0; i < statements; i++) {
            long id = 1 + random.nextInt(keys);
            int kind = random.nextInt(100);
            if (kind < 35) {
                update(c, id, random);
            } else if (kind < 60) {
                write(c, dialect.upsert, id, random);
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
        return random.nextInt(100) >= 5;
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
        try (PreparedStatement s = c.prepareStatement("DELETE FROM items WHERE id = ?")) {
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
