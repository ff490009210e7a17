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
