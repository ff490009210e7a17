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
package io.nearline.localcluster.cdcreplay;

import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.cdcbootstrap.core.SnapshotProducer;
import io.nearline.cdcbootstrap.core.SnapshotSource;
import io.nearline.jobs.kit.console.Progress;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;

/** The bootstrap side of a replay: the bootstrap topic and the snapshot published to it. */
final class BootstrapReplay {

    /** Records that reached the bootstrap topic, and the rows that did not. */
    record Published(long records, List<SnapshotProducer.Refused> refused) {}

    private BootstrapReplay() {}

    /** Ends a producer mid-snapshot from its progress callback, before its chunk's progress is saved: a crash. */
    private static final class ProducerCrash extends RuntimeException {
        ProducerCrash() {
            super("snapshot producer crashed on purpose", null, false, false);
        }
    }

    /**
     * Publishes the snapshot (the change stream's current end offsets go into the BEGIN markers). With
     * {@code crashAfterRows} >= 0 the first producer dies after that many rows and a second one resumes
     * from the saved progress. Returns the records on the bootstrap topic and the rows it refused (too
     * large: dead-lettered to {@code deadLetterTopic}).
     */
    /** Where a snapshot goes: the broker, the bootstrap topic's settings and partitions, the CDC and dead-letter topics. */
    record Target(
            String bootstrapServers,
            BootstrapSettings settings,
            int partitions,
            String cdcTopic,
            String deadLetterTopic) {}

    static Published publish(Target target, SnapshotSource snapshot, Path progressFile, long crashAfterRows) {
        String bootstrapServers = target.bootstrapServers();
        BootstrapSettings settings = target.settings();
        int partitions = target.partitions();
        String deadLetterTopic = target.deadLetterTopic();
        KafkaTopics.createTopics(bootstrapServers, Map.of(settings.topic(), partitions));
        Map<Integer, Long> liveOffsets = KafkaTopics.endOffsets(bootstrapServers, target.cdcTopic());
        long records = 0;
        List<SnapshotProducer.Refused> refused = new ArrayList<>();
        try (Progress progress =
                new Progress("snapshot rows sent", snapshot.rowCount() + 2L * partitions, System.err)) {
            // a drill: a first producer dies after crashAfterRows rows, a second one resumes from the saved progress
            List<Long> stops = crashAfterRows >= 0 ? List.of(crashAfterRows, -1L) : List.of(-1L);
            for (long stopAfter : stops) {
                long[] handed = {0};
                // the BEGIN markers, one per partition, come before the rows
                long crashAt = stopAfter < 0 ? -1 : partitions + stopAfter;
                Runnable onRecord = () -> {
                    progress.step();
                    if (++handed[0] == crashAt) {
                        throw new ProducerCrash();
                    }
                };
                try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(bootstrapServers)) {
                    SnapshotProducer.Result result = new SnapshotProducer(
                                    producer, settings.topic(), partitions, settings.chunkRows(), deadLetterTopic)
                            .publish(snapshot, progressFile, liveOffsets, onRecord);
                    records += result.recordsOnTopic();
                    refused.addAll(result.refused());
                } catch (ProducerCrash crash) {
                    records += handed[0]; // closing the producer sent what it held: all of it is on the topic
                    System.err.printf(
                            "%nsnapshot producer stopped after %,d rows (drill); a new one resumes%n", stopAfter);
                }
            }
        }
        return new Published(records, refused);
    }
}
