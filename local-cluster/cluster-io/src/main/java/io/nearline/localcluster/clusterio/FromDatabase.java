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
package io.nearline.localcluster.clusterio;

import io.nearline.cdcbootstrap.core.DatabaseSnapshot;
import io.nearline.cdcbootstrap.core.SnapshotFile;
import io.nearline.cdcbootstrap.core.SnapshotProducer;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.database.SourceDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

/**
 * {@code bootstrap run --from postgres|mysql}: the cluster's database as the snapshot's source. A
 * snapshot is taken into a file and published from it, so a failed publication resumes the same
 * snapshot (the database's own read cannot be resumed); once published, the next run takes a new one.
 */
final class FromDatabase {

    private final String kind;
    private final ClusterFile cluster;
    private final Duration wait;
    /** The one table to read ({@code --table}), or null: every table the section lists. */
    private final String table;

    FromDatabase(String kind, Path clusterDir, Duration wait, String table) {
        DatabaseSnapshot.Source.of(kind); // refuses anything else, naming --from
        this.kind = kind;
        this.cluster = ClusterFile.read(clusterDir.toAbsolutePath().normalize());
        this.wait = wait;
        this.table = table;
    }

    /** The cluster's broker and its client security, as settings. */
    Map<String, String> kafkaSettings() {
        return cluster.kafka().settings();
    }

    private Path stateDir() {
        try {
            return Files.createDirectories(cluster.dir().resolve("bootstrap"));
        } catch (IOException e) {
            throw new ClusterException("cannot create " + cluster.dir().resolve("bootstrap") + ": " + e.getMessage());
        }
    }

    Path defaultSnapshotFile() {
        return stateDir().resolve(kind + ".snapshot.jsonl");
    }

    Path stateFile() {
        return stateDir().resolve("schedule.state");
    }

    /** Takes a new snapshot into {@code file}, unless the one there was begun and not yet fully published. */
    void snapshotUnlessResuming(Path file, Path progressFile, DatabaseSnapshot.Watermarks watermarks)
            throws IOException, SQLException {
        SnapshotProducer.Progress progress = SnapshotProducer.load(progressFile);
        if (Files.exists(file)
                && progress != null
                && progress.begun()
                && !progress.ended()
                && progress.snapshotId().equals(SnapshotFile.open(file).id())) {
            System.err.printf("bootstrap run: resuming snapshot %s (%s)%n", progress.snapshotId(), file);
            return;
        }
        SourceDatabase all = SourceDatabase.fromClusterFile(cluster.dir(), kind);
        SourceDatabase database = table == null ? all : all.only(table);
        System.err.printf("bootstrap run: taking a snapshot of %s%n", database);
        long started = System.nanoTime();
        try (Connection c = database.connect()) {
            DatabaseSnapshot.Taken taken = new DatabaseSnapshot(
                            c, DatabaseSnapshot.Source.of(kind), database.resolvedKeys(c), wait)
                    .write(watermarks, file);
            System.err.printf(
                    "bootstrap run: snapshot %s: %,d rows at version %d (%s), taken in %.1f s%n",
                    taken.id(), taken.rows(), taken.scn(), taken.point(), (System.nanoTime() - started) / 1e9);
        } catch (IllegalStateException e) {
            throw new ClusterException("bootstrap run --from " + kind + ": " + e.getMessage(), 1);
        }
    }
}
