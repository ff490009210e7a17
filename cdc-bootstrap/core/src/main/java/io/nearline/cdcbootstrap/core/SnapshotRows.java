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

import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.events.ChangeEventText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A consistent snapshot held in memory: an id, per source partition the high-watermark SCN it is
 * consistent at, and the rows (change events with op UPSERT, each with its own SCN). For snapshots
 * built in a program and small files; the producer reads a file as a stream ({@link SnapshotFile}).
 */
public record SnapshotRows(String id, Map<Integer, Long> highWatermarks, List<ChangeEvent> rows)
        implements SnapshotSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    public SnapshotRows {
        for (ChangeEvent row : rows) {
            check(id, highWatermarks, row);
        }
    }

    /** A row belongs in snapshot {@code id}: op UPSERT, at or below its partition's high-watermark (when known). */
    static void check(String id, Map<Integer, Long> highWatermarks, ChangeEvent row) {
        if (row.getOp() != Op.UPSERT) {
            throw new IllegalArgumentException("snapshot " + id + ": row " + row.getKey() + " is a " + row.getOp()
                    + "; a snapshot holds the rows that exist (op UPSERT)");
        }
        if (highWatermarks == null) {
            return;
        }
        Long hw = highWatermarks.get(row.getPartition());
        if (hw == null || row.getScn() > hw) {
            throw new IllegalArgumentException("snapshot " + id + ": row " + row.getKey() + " has SCN " + row.getScn()
                    + " above its partition's high-watermark " + hw);
        }
    }

    @Override
    public Map<Integer, Long> rowsPerPartition() {
        Map<Integer, Long> out = new TreeMap<>();
        rows.forEach(r -> out.merge(r.getPartition(), 1L, Long::sum));
        return out;
    }

    @Override
    public long rowCount() {
        return rows.size();
    }

    @Override
    public Stream<ChangeEvent> streamRows() {
        return rows.stream();
    }

    /** A whole snapshot file in memory (see {@link SnapshotFile} for its forms). */
    public static SnapshotRows read(Path file) {
        SnapshotFile snapshot = SnapshotFile.open(file);
        try (Stream<ChangeEvent> rows = snapshot.streamRows()) {
            return new SnapshotRows(snapshot.id(), snapshot.highWatermarks(), rows.toList());
        }
    }

    /** Writes the Avro container form, the id and high-watermarks in its metadata. */
    public void writeAvro(Path file) {
        var marks = JSON.createObjectNode();
        highWatermarks.forEach((p, scn) -> marks.put(Integer.toString(p), scn));
        try (DataFileWriter<ChangeEvent> writer = new DataFileWriter<>(new SpecificDatumWriter<>(ChangeEvent.class))) {
            writer.setMeta("nearline.snapshot", id);
            writer.setMeta("nearline.highWatermarks", marks.toString());
            writer.create(ChangeEvent.getClassSchema(), file.toFile());
            for (ChangeEvent row : rows) {
                writer.append(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write snapshot " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes the file form, header first. */
    public void write(Path file) {
        List<String> lines = new ArrayList<>();
        var header = JSON.createObjectNode().put("snapshot", id);
        var marks = header.putObject("highWatermarks");
        highWatermarks.forEach((p, scn) -> marks.put(Integer.toString(p), scn));
        lines.add(header.toString());
        rows.forEach(r -> lines.add(ChangeEventText.format(r)));
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write snapshot " + file + ": " + e.getMessage(), e);
        }
    }
}
