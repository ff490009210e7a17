package io.nearline.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.cacheupdater.core.events.ChangeEventText;
import io.nearline.cacheupdater.core.events.Decoded;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.schema.TrustedAvroClasses;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A consistent snapshot of a source: an id, per source partition the high-watermark SCN it is
 * consistent at, and the rows (change events with op UPSERT, each with its own SCN).
 *
 * <p>File forms: JSON lines in the change-event text form, optionally headed by
 * {@code {"snapshot":"ID","highWatermarks":{"0":SCN,...}}}; or an Avro container file of
 * {@code ChangeEvent} ({@code .avro}), with the same two items in its metadata
 * ({@code nearline.snapshot}, {@code nearline.highWatermarks}). Without them the id is the file name
 * and each partition's high-watermark is its largest row SCN.
 */
public record SnapshotRows(String id, Map<Integer, Long> highWatermarks, List<ChangeEvent> rows) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public SnapshotRows {
        for (ChangeEvent row : rows) {
            if (row.getOp() != Op.UPSERT) {
                throw new IllegalArgumentException("snapshot " + id + ": row " + row.getKey() + " is a " + row.getOp()
                        + "; a snapshot holds the rows that exist (op UPSERT)");
            }
            Long hw = highWatermarks.get(row.getPartition());
            if (hw == null || row.getScn() > hw) {
                throw new IllegalArgumentException("snapshot " + id + ": row " + row.getKey() + " has SCN "
                        + row.getScn() + " above its partition's high-watermark " + hw);
            }
        }
    }

    /** Rows per source partition. */
    public Map<Integer, Long> rowsPerPartition() {
        Map<Integer, Long> out = new TreeMap<>();
        rows.forEach(r -> out.merge(r.getPartition(), 1L, Long::sum));
        return out;
    }

    // JsonNode.fields() is deprecated in Jackson 2.19, but its successor is missing from the 2.13 line
    // that Samza jobs run with.
    @SuppressWarnings("deprecation")
    public static SnapshotRows read(Path file) {
        if (file.getFileName().toString().endsWith(".avro")) {
            return readAvro(file);
        }
        String id = file.getFileName().toString();
        Map<Integer, Long> hw = null;
        List<ChangeEvent> rows = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                if (number == 1 && line.contains("\"snapshot\"")) {
                    JsonNode header = JSON.readTree(line);
                    id = header.path("snapshot").asText(id);
                    hw = new TreeMap<>();
                    for (var it = header.path("highWatermarks").fields(); it.hasNext(); ) {
                        var e = it.next();
                        hw.put(Integer.parseInt(e.getKey()), e.getValue().asLong());
                    }
                    continue;
                }
                Decoded d = ChangeEventText.parse(line);
                if (!d.ok()) {
                    throw new IllegalArgumentException(file + ":" + number + ": not a change event: "
                            + d.rejection().detail());
                }
                rows.add(d.event());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + file + ": " + e.getMessage(), e);
        }
        return new SnapshotRows(id, hw != null ? hw : highestScns(rows), rows);
    }

    private static Map<Integer, Long> highestScns(List<ChangeEvent> rows) {
        Map<Integer, Long> hw = new TreeMap<>();
        for (ChangeEvent r : rows) {
            hw.merge(r.getPartition(), r.getScn(), Math::max);
        }
        return hw;
    }

    @SuppressWarnings("deprecation") // JsonNode.fields(), as in read()
    private static SnapshotRows readAvro(Path file) {
        TrustedAvroClasses.ensure();
        List<ChangeEvent> rows = new ArrayList<>();
        try (DataFileReader<ChangeEvent> reader =
                new DataFileReader<>(file.toFile(), new SpecificDatumReader<>(ChangeEvent.class))) {
            reader.forEach(rows::add);
            String id = reader.getMetaString("nearline.snapshot");
            String marks = reader.getMetaString("nearline.highWatermarks");
            Map<Integer, Long> hw = marks == null ? highestScns(rows) : new TreeMap<>();
            if (marks != null) {
                JSON.readTree(marks)
                        .fields()
                        .forEachRemaining(e -> hw.put(
                                Integer.parseInt(e.getKey()), e.getValue().asLong()));
            }
            return new SnapshotRows(id != null ? id : file.getFileName().toString(), hw, rows);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + file + ": " + e.getMessage(), e);
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
