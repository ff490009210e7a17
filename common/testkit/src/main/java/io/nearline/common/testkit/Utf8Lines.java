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
package io.nearline.common.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A text file the tools read (events, snapshots, tracking inputs) as UTF-8 lines. A file that is not
 * UTF-8 is refused with the line and the byte at fault and what to do, rather than Java's "Input length
 * = 1"; the message is an {@link UncheckedIOException}'s, which the commands print as one line, exit 2.
 */
public final class Utf8Lines {

    private Utf8Lines() {}

    /** The file's lines (without their line ends), in order. */
    public static List<String> read(Path file) {
        List<String> lines = new ArrayList<>();
        forEach(file, lines::add);
        return lines;
    }

    /** Refuses a file that is not UTF-8 as {@link #read} does, one line in memory at a time. */
    public static void check(Path file) {
        forEach(file, line -> {});
    }

    private static void forEach(Path file, Consumer<String> each) {
        CharsetDecoder utf8 = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            long lineStart = 0;
            long offset = 0;
            int number = 0;
            for (int b = in.read(); b >= 0; b = in.read(), offset++) {
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                each.accept(decode(utf8, file, line.toByteArray(), lineStart, ++number));
                line.reset();
                lineStart = offset + 1;
            }
            if (line.size() > 0) { // a last line without its line end
                each.accept(decode(utf8, file, line.toByteArray(), lineStart, ++number));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static String decode(CharsetDecoder utf8, Path file, byte[] line, long lineStart, int number) {
        int end = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
        ByteBuffer in = ByteBuffer.wrap(line, 0, end);
        CharBuffer out = CharBuffer.allocate(end);
        utf8.reset();
        CoderResult result = utf8.decode(in, out, true);
        if (result.isError()) {
            int at = in.position();
            throw new UncheckedIOException(
                    String.format(
                            "%s is not UTF-8: line %d, byte %d of the file (column %d of the line) is 0x%02X; "
                                    + "save it as UTF-8 (e.g. iconv -f ISO-8859-1 -t UTF-8 %s > fixed.jsonl)",
                            file, number, lineStart + at, at + 1, line[at] & 0xff, file),
                    new CharacterCodingException());
        }
        utf8.flush(out);
        return out.flip().toString();
    }
}
