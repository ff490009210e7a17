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
package io.nearline.localcluster.sourcesimulator;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.events.ChangeDecoder;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.events.PartialImages;
import io.nearline.jobs.checker.Row;
import io.nearline.jobs.checker.TruthView;
import io.nearline.localcluster.cdcreference.ReplayInput;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The source of truth as told by its change log (JSON lines, ours or Debezium's): per key, the valid event with the
 * highest version, whatever order the lines are in. Lines a job would dead-letter are ignored.
 */
public final class ChangeLogTruth implements TruthView {

    private final Map<CacheKey, Row> rows = new HashMap<>();

    /** A change log in this project's text form. */
    public ChangeLogTruth(List<Path> files, int maxPayloadBytes) {
        this(files, maxPayloadBytes, ChangeDecoder.AVRO);
    }

    /** A change log whose lines {@code decoder} reads: this project's text form, or Debezium's records. */
    public ChangeLogTruth(List<Path> files, int maxPayloadBytes, ChangeDecoder decoder) {
        ChangeEventValidator validator = new ChangeEventValidator(maxPayloadBytes, null);
        for (ReplayInput.Line line : ReplayInput.read(files, decoder)) {
            if (!line.decoded().ok() || validator.check(line.decoded().event()) != null) {
                continue;
            }
            ChangeEvent e = line.decoded().event();
            CacheRecord record = ChangeEvents.cacheRecord(e);
            Row row = new Row(
                    ChangeEvents.cacheKey(e),
                    e.getPartition(),
                    record.version(),
                    e.getOp() == Op.DELETE,
                    record.tombstone() ? null : record.payload(),
                    e.getCommitTimeMillis());
            rows.merge(row.key(), row, ChangeLogTruth::newer);
        }
        // a row its source did not capture whole, that nothing before it completes, is no one's truth
        rows.values().removeIf(r -> !r.deleted() && PartialImages.isPartial(r.payload()));
    }

    /**
     * The newer of two rows of a key; a newer row with uncaptured columns takes them from the older
     * (read in delivery order, as Debezium's own log is, that is the row it changed).
     */
    private static Row newer(Row held, Row next) {
        if (!next.version().isNewerThan(held.version())) {
            return held;
        }
        if (next.deleted() || held.deleted() || !PartialImages.isPartial(next.payload())) {
            return next;
        }
        byte[] filled = PartialImages.filledFrom(next.payload(), held.payload());
        return filled == null
                ? next
                : new Row(next.key(), next.partition(), next.version(), false, filled, next.commitTimeMillis());
    }

    @Override
    public Optional<Row> read(CacheKey key) {
        return Optional.ofNullable(rows.get(key));
    }

    @Override
    public Set<CacheKey> keys() {
        return Set.copyOf(rows.keySet());
    }
}
