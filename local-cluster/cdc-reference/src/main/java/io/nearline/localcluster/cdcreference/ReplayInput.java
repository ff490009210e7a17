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
package io.nearline.localcluster.cdcreference;

import io.nearline.common.events.ChangeDecoder;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.events.ChangeEventText;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.events.DebeziumText;
import io.nearline.common.events.DebeziumText.KafkaRecord;
import io.nearline.common.events.Decoded;
import io.nearline.common.events.Rejection;
import io.nearline.common.testkit.Utf8Lines;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Change events read from JSON-lines files, in file order, each with where it came from. Blank lines
 * are skipped. A file holds this project's text form (docs/semantics.md), or Debezium's records when
 * read with a {@link DebeziumDecoder}.
 */
public final class ReplayInput {

    /**
     * One non-blank line: its origin, its text, the record it puts onto the CDC topic (null when the
     * line cannot be one: the tool dead-letters it with file:line), and what the job decodes it to.
     */
    public record Line(String file, long number, String text, KafkaRecord record, Decoded decoded) {}

    private ReplayInput() {}

    /** Lines in this project's text form. */
    public static List<Line> read(List<Path> files) {
        return read(files, ChangeDecoder.AVRO);
    }

    public static List<Line> read(List<Path> files, ChangeDecoder decoder) {
        List<Line> out = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Utf8Lines.read(file);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).isBlank()) {
                    out.add(line(file.getFileName().toString(), i + 1, lines.get(i), decoder));
                }
            }
        }
        return out;
    }

    private static Line line(String file, long number, String text, ChangeDecoder decoder) {
        if (decoder instanceof DebeziumDecoder debezium) {
            KafkaRecord record = DebeziumText.record(text, debezium);
            return record == null
                    ? new Line(
                            file,
                            number,
                            text,
                            null,
                            Decoded.rejected(Rejection.Reason.UNDECODABLE, "not a JSON object"))
                    : new Line(file, number, text, record, debezium.decode(record.key(), record.value()));
        }
        Decoded decoded = ChangeEventText.parse(text);
        KafkaRecord record = decoded.ok()
                ? new KafkaRecord(
                        decoded.event().getKey().getBytes(StandardCharsets.UTF_8),
                        ChangeEventCodec.encode(decoded.event()))
                : null;
        return new Line(file, number, text, record, decoded);
    }
}
