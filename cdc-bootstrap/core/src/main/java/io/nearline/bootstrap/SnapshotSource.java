package io.nearline.bootstrap;

import io.nearline.common.avro.ChangeEvent;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A consistent snapshot of a source as the producer reads it: its id, per source partition the
 * high-watermark SCN it is consistent at and its row count, and the rows (op UPSERT), always in the
 * same order. A file is read as a stream ({@link SnapshotFile}), so its size is bounded by the disk,
 * not the heap; a small snapshot built in memory is a {@link SnapshotRows}.
 */
public interface SnapshotSource {

    String id();

    Map<Integer, Long> highWatermarks();

    /** Rows per source partition. */
    Map<Integer, Long> rowsPerPartition();

    long rowCount();

    /** The rows in their order, read afresh on each call; close the stream when done. */
    Stream<ChangeEvent> streamRows();
}
