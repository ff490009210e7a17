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
package io.nearline.cdcbootstrap.core;

import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.events.Rejection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * Publishes a snapshot as a bootstrap stream: on every partition of the bootstrap topic a BEGIN
 * marker, that partition's rows with their sequence numbers, an END marker. Rows go in chunks; after
 * each chunk is acknowledged the progress is saved (atomically) in the progress file, so a producer
 * that dies resumes after the last saved chunk instead of starting over. Rows of the unsaved chunk
 * are sent again with the same sequence numbers: consumers count them once, and the SCN-ordered
 * write makes the repeat harmless. The snapshot is read as a stream, twice (to count each partition's
 * rows for the BEGIN markers, then to send them), so memory stays bounded whatever its size.
 */
public final class SnapshotProducer {

    /** How far a snapshot got, as saved in the progress file. */
    public record Progress(String snapshotId, boolean begun, long rowsSent, boolean ended) {}

    /**
     * What a call did: rows sent by it, and whether the snapshot is now fully published. {@code refused}:
     * rows the broker refused as too large, dead-lettered instead; their partitions never verify complete.
     */
    public record Result(long rowsSentNow, long recordsSentNow, boolean ended, boolean resumed, List<Refused> refused) {
        /** Records that reached the bootstrap topic. */
        public long recordsOnTopic() {
            return recordsSentNow - refused.size();
        }
    }

    /** A row the bootstrap topic refused: where it would have been, and its key. */
    public record Refused(int partition, long sequence, String key, int bytes) {
        @Override
        public String toString() {
            return "partition " + partition + " row " + sequence + " (key '" + key + "', " + bytes + " bytes)";
        }
    }

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final int chunkRows;
    private final String deadLetterTopic;
    /** Sends that failed, by row index; checked after each flush, before progress is saved. */
    private final Map<Long, FailedSend> failed = new ConcurrentHashMap<>();

    private record FailedSend(ChangeEvent row, int partition, long sequence, Exception error) {}

    /** @param deadLetterTopic where rows too large for {@code topic} go, with the reason */
    public SnapshotProducer(
            Producer<byte[], byte[]> producer, String topic, int partitions, int chunkRows, String deadLetterTopic) {
        if (partitions < 1 || chunkRows < 1) {
            throw new IllegalArgumentException("partitions and chunk rows must be >= 1");
        }
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
        this.chunkRows = chunkRows;
        this.deadLetterTopic = deadLetterTopic;
    }

    /** Which bootstrap-topic partition a cache key goes to: fixed, so a resumed producer numbers rows the same. */
    public static int partitionOf(String cacheKey, int partitions) {
        return Math.floorMod(cacheKey.hashCode(), partitions);
    }

    /**
     * Publishes {@code snapshot}, resuming from {@code progressFile} when it holds this snapshot's
     * progress. {@code liveOffsets} (the change stream's end offsets now) go into the BEGIN markers.
     * {@code onRecord} runs after each record is handed to the producer (the BEGIN markers, one per
     * partition, come before the rows); what it throws ends the publication before the progress of
     * the chunk it is in is saved, as a crash would.
     */
    public Result publish(
            SnapshotSource snapshot, Path progressFile, Map<Integer, Long> liveOffsets, Runnable onRecord) {
        Progress progress = load(progressFile);
        boolean resumed = progress != null && progress.snapshotId().equals(snapshot.id());
        if (!resumed) {
            progress = new Progress(snapshot.id(), false, 0, false);
        }
        if (progress.ended()) {
            return new Result(0, 0, true, true, List.of());
        }
        long[] perPartition = rowsPerPartition(snapshot);
        long records = 0;
        if (!progress.begun()) {
            records += markers(BootstrapKind.BEGIN, snapshot, perPartition, liveOffsets, onRecord);
            producer.flush();
            progress = new Progress(snapshot.id(), true, 0, false);
            save(progressFile, progress);
        }
        long sentNow = 0;
        List<Refused> refused = new ArrayList<>();
        long[] sequences = new long[partitions];
        long index = 0;
        try (Stream<ChangeEvent> rows = snapshot.streamRows()) {
            for (Iterator<ChangeEvent> it = rows.iterator(); it.hasNext(); index++) {
                ChangeEvent row = it.next();
                int partition = partitionOf(row.getKey(), partitions);
                long sequence = sequences[partition]++;
                if (index < progress.rowsSent()) {
                    continue; // sent before the last saved chunk: numbered, not sent again
                }
                sendRow(snapshot.id(), row, sequence, index);
                sentNow++;
                records++;
                onRecord.run();
                if ((index + 1) % chunkRows == 0) {
                    producer.flush();
                    refused.addAll(refused(snapshot.id()));
                    progress = new Progress(snapshot.id(), true, index + 1, false);
                    save(progressFile, progress);
                }
            }
        }
        producer.flush();
        refused.addAll(refused(snapshot.id()));
        records += markers(BootstrapKind.END, snapshot, perPartition, Map.of(), onRecord);
        producer.flush();
        save(progressFile, new Progress(snapshot.id(), true, index, true));
        return new Result(sentNow, records, true, resumed, refused);
    }

    /** Rows per bootstrap-topic partition, by the raw key: a row whose key cannot be a cache key still goes out, for the job to dead-letter. */
    private long[] rowsPerPartition(SnapshotSource snapshot) {
        long[] perPartition = new long[partitions];
        try (Stream<ChangeEvent> rows = snapshot.streamRows()) {
            rows.forEach(row -> perPartition[partitionOf(row.getKey(), partitions)]++);
        }
        return perPartition;
    }

    /** Sends row number {@code index} of the snapshot, the {@code sequence}-th of its partition; a failed send is kept for {@link #refused}. */
    private void sendRow(String snapshotId, ChangeEvent row, long sequence, long index) {
        int partition = partitionOf(row.getKey(), partitions);
        BootstrapRecord r = record(snapshotId, BootstrapKind.ROW, partition);
        r.setSequence(sequence);
        r.setRow(ByteBuffer.wrap(ChangeEventCodec.encode(row)));
        producer.send(
                new ProducerRecord<>(
                        topic, partition, row.getKey().getBytes(StandardCharsets.UTF_8), BootstrapCodec.encode(r)),
                (metadata, e) -> {
                    if (e != null) {
                        failed.put(index, new FailedSend(row, partition, sequence, e));
                    }
                });
    }

    /**
     * The rows whose sends failed since the last look, dead-lettered: a row too large for the topic is
     * refused; any other failure ends the publication before its chunk's progress is saved.
     */
    private List<Refused> refused(String snapshotId) {
        List<Refused> out = new ArrayList<>();
        for (Map.Entry<Long, FailedSend> f : new TreeMap<>(failed).entrySet()) {
            long i = f.getKey();
            FailedSend send = f.getValue();
            failed.remove(i);
            if (!(send.error() instanceof RecordTooLargeException)) {
                throw new IllegalStateException(
                        "snapshot row " + i + " could not be sent to " + topic + ": " + send.error(), send.error());
            }
            ChangeEvent row = send.row();
            byte[] value = ChangeEventCodec.encode(row);
            byte[] key = row.getKey().getBytes(StandardCharsets.UTF_8);
            Refused r = new Refused(send.partition(), send.sequence(), row.getKey(), value.length + key.length);
            producer.send(new ProducerRecord<>(
                    deadLetterTopic,
                    null,
                    DeadLetters.encode(DeadLetters.of(
                            new SourceRecord(
                                    "snapshot-producer",
                                    "snapshot " + snapshotId,
                                    r.partition(),
                                    r.sequence(),
                                    key,
                                    DeadLetters.head(value)),
                            Rejection.tooLarge("a snapshot row", r.bytes(), topic),
                            System.currentTimeMillis()))));
            out.add(r);
        }
        producer.flush();
        return out;
    }

    private long markers(
            BootstrapKind kind,
            SnapshotSource snapshot,
            long[] perPartition,
            Map<Integer, Long> liveOffsets,
            Runnable onRecord) {
        Map<String, Long> hw = new HashMap<>();
        snapshot.highWatermarks().forEach((p, scn) -> hw.put(Integer.toString(p), scn));
        Map<String, Long> sourceRows = new HashMap<>();
        snapshot.rowsPerPartition().forEach((p, n) -> sourceRows.put(Integer.toString(p), n));
        Map<String, Long> live = new HashMap<>();
        liveOffsets.forEach((p, o) -> live.put(Integer.toString(p), o));
        for (int p = 0; p < partitions; p++) {
            BootstrapRecord r = record(snapshot.id(), kind, p);
            r.setPartitionRows(perPartition[p]);
            r.setHighWatermarks(hw);
            r.setSourceRows(sourceRows);
            r.setLiveStreamOffsets(live);
            producer.send(new ProducerRecord<>(topic, p, null, BootstrapCodec.encode(r)));
            onRecord.run();
        }
        return partitions;
    }

    private static BootstrapRecord record(String snapshotId, BootstrapKind kind, int partition) {
        return BootstrapRecord.newBuilder()
                .setSnapshotId(snapshotId)
                .setKind(kind)
                .setTopicPartition(partition)
                .setAtMillis(System.currentTimeMillis())
                .build();
    }

    public static Progress load(Path file) {
        if (file == null || !Files.exists(file)) {
            return null;
        }
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read progress file " + file + ": " + e.getMessage(), e);
        }
        return new Progress(
                p.getProperty("snapshot"),
                Boolean.parseBoolean(p.getProperty("begun")),
                Long.parseLong(p.getProperty("rows-sent", "0")),
                Boolean.parseBoolean(p.getProperty("ended")));
    }

    /** Written to a temporary file and moved into place: a crash leaves the old or the new progress, never half. */
    static void save(Path file, Progress progress) {
        if (file == null) {
            return;
        }
        String text = "snapshot=" + progress.snapshotId() + "\nbegun=" + progress.begun() + "\nrows-sent="
                + progress.rowsSent() + "\nended=" + progress.ended() + "\n";
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save progress to " + file + ": " + e.getMessage(), e);
        }
    }
}
