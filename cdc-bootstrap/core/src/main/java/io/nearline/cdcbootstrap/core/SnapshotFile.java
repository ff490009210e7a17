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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.events.ChangeEventText;
import io.nearline.common.events.Decoded;
import io.nearline.common.schema.TrustedAvroClasses;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * A snapshot file read as a stream, so that a snapshot of any size is published in bounded memory.
 * {@link #open} reads it through once to check every row and count them; {@link #streamRows} reads
 * it again from the start each time.
 *
 * <p>Forms: JSON lines in the change-event text form, optionally headed by
 * {@code {"snapshot":"ID","highWatermarks":{"0":SCN,...}}}; or an Avro container file of
 * {@code ChangeEvent} ({@code .avro}), with the same two items in its metadata
 * ({@code nearline.snapshot}, {@code nearline.highWatermarks}). Without them the id is the file name
 * and each partition's high-watermark is its largest row SCN.
 */
public final class SnapshotFile implements SnapshotSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final String id;
    private final Map<Integer, Long> highWatermarks;
    private final Map<Integer, Long> rowsPerPartition;
    private final long rowCount;

    private SnapshotFile(
            Path file, String id, Map<Integer, Long> highWatermarks, Map<Integer, Long> rowsPerPartition, long rows) {
        this.file = file;
        this.id = id;
        this.highWatermarks = highWatermarks;
        this.rowsPerPartition = rowsPerPartition;
        this.rowCount = rows;
    }

    /** The id and high-watermarks a file declares; either may be missing (null). */
    private record Header(String id, Map<Integer, Long> highWatermarks) {}

    /** Reads the file through once: its header, then every row checked and counted, none kept. */
    public static SnapshotFile open(Path file) {
        Header header = isAvro(file) ? avroHeader(file) : jsonHeader(file);
        String id = header.id() != null ? header.id() : file.getFileName().toString();
        Map<Integer, Long> counts = new TreeMap<>();
        Map<Integer, Long> highestScns = new TreeMap<>();
        long rows = 0;
        try (Stream<ChangeEvent> stream = rows(file)) {
            for (Iterator<ChangeEvent> it = stream.iterator(); it.hasNext(); ) {
                ChangeEvent row = it.next();
                SnapshotRows.check(id, header.highWatermarks(), row);
                counts.merge(row.getPartition(), 1L, Long::sum);
                highestScns.merge(row.getPartition(), row.getScn(), Math::max);
                rows++;
            }
        }
        Map<Integer, Long> hw = header.highWatermarks() != null ? header.highWatermarks() : highestScns;
        return new SnapshotFile(file, id, hw, counts, rows);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Map<Integer, Long> highWatermarks() {
        return highWatermarks;
    }

    @Override
    public Map<Integer, Long> rowsPerPartition() {
        return rowsPerPartition;
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    @Override
    public Stream<ChangeEvent> streamRows() {
        return rows(file);
    }

    private static boolean isAvro(Path file) {
        return file.getFileName().toString().endsWith(".avro");
    }

    private static Stream<ChangeEvent> rows(Path file) {
        return isAvro(file) ? avroRows(file) : jsonRows(file);
    }

    private static boolean isHeader(long lineNumber, String line) {
        return lineNumber == 1 && line.contains("\"snapshot\"");
    }

    // JsonNode.fields() is deprecated in Jackson 2.19, but its successor is missing from the 2.13 line
    // that Samza jobs run with.
    @SuppressWarnings("deprecation")
    private static Map<Integer, Long> highWatermarks(JsonNode marks) {
        Map<Integer, Long> hw = new TreeMap<>();
        for (var it = marks.fields(); it.hasNext(); ) {
            var e = it.next();
            hw.put(Integer.parseInt(e.getKey()), e.getValue().asLong());
        }
        return hw;
    }

    private static Header jsonHeader(Path file) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = reader.readLine();
            if (first == null || !isHeader(1, first)) {
                return new Header(null, null);
            }
            JsonNode header = JSON.readTree(first);
            return new Header(
                    header.path("snapshot").isMissingNode()
                            ? null
                            : header.path("snapshot").asText(),
                    highWatermarks(header.path("highWatermarks")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + file + ": " + e.getMessage(), e);
        }
    }

    /** The rows of a JSON-lines file, one line at a time. */
    private static Stream<ChangeEvent> jsonRows(Path file) {
        BufferedReader reader;
        try {
            reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + file + ": " + e.getMessage(), e);
        }
        Iterator<ChangeEvent> lines = new Iterator<>() {
            private long number;
            private ChangeEvent next;

            @Override
            public boolean hasNext() {
                try {
                    while (next == null) {
                        String line = reader.readLine();
                        if (line == null) {
                            return false;
                        }
                        number++;
                        if (line.isBlank() || isHeader(number, line)) {
                            continue;
                        }
                        Decoded d = ChangeEventText.parse(line);
                        if (!d.ok()) {
                            throw new IllegalArgumentException(file + ":" + number + ": not a change event: "
                                    + d.rejection().detail());
                        }
                        next = d.event();
                    }
                    return true;
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read snapshot " + file + ": " + e.getMessage(), e);
                }
            }

            @Override
            public ChangeEvent next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ChangeEvent row = next;
                next = null;
                return row;
            }
        };
        return StreamSupport.stream(
                        Spliterators.spliteratorUnknownSize(lines, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(() -> close(reader, file));
    }

    private static DataFileReader<ChangeEvent> avroReader(Path file) {
        TrustedAvroClasses.ensure();
        try {
            return new DataFileReader<>(file.toFile(), new SpecificDatumReader<>(ChangeEvent.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + file + ": " + e.getMessage(), e);
        }
    }

    private static Header avroHeader(Path file) {
        try (DataFileReader<ChangeEvent> reader = avroReader(file)) {
            String marks = reader.getMetaString("nearline.highWatermarks");
            return new Header(
                    reader.getMetaString("nearline.snapshot"),
                    marks == null ? null : highWatermarks(JSON.readTree(marks)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + file + ": " + e.getMessage(), e);
        }
    }

    private static Stream<ChangeEvent> avroRows(Path file) {
        DataFileReader<ChangeEvent> reader = avroReader(file);
        return StreamSupport.stream(reader.spliterator(), false).onClose(() -> close(reader, file));
    }

    private static void close(AutoCloseable reader, Path file) {
        try {
            reader.close();
        } catch (Exception e) {
            throw new UncheckedIOException("cannot close snapshot " + file, new IOException(e));
        }
    }
}
