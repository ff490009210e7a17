package io.nearline.localcluster.simulator;

import java.util.List;

/**
 * A consistent snapshot: per partition the high-watermark SCN at the moment it was taken, and every
 * row (deleted ones included) as of then; each row's SCN is at most its partition's high-watermark.
 */
public record Snapshot(long[] highWatermarks, List<Row> rows) {}
