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

import java.io.IOException;
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

/**
 * A text file the tools read (events, snapshots, tracking inputs) as UTF-8 lines. A file that is not
 * UTF-8 is refused with the line and the byte at fault and what to do, rather than Java's "Input length
 * = 1"; the message is an {@link UncheckedIOException}'s, which the commands print as one line, exit 2.
 */
public final class Utf8Lines {

    private Utf8Lines() {}

    /** The file's lines (without their line ends), in order. */
    public static List<String> read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                if (i == bytes.length && start == i) {
                    break; // the file ends with a line end
                }
                int end = i > start && bytes[i - 1] == '\r' ? i - 1 : i;
                lines.add(decode(utf8, file, bytes, start, end, lines.size() + 1));
                start = i + 1;
            }
        }
        return lines;
    }

    private static String decode(CharsetDecoder utf8, Path file, byte[] bytes, int from, int to, int line) {
        ByteBuffer in = ByteBuffer.wrap(bytes, from, to - from);
        CharBuffer out = CharBuffer.allocate(to - from);
        utf8.reset();
        CoderResult result = utf8.decode(in, out, true);
        if (result.isError()) {
            int at = in.position();
            throw new UncheckedIOException(
                    String.format(
                            "%s is not UTF-8: line %d, byte %d of the file (column %d of the line) is 0x%02X; "
                                    + "save it as UTF-8 (e.g. iconv -f ISO-8859-1 -t UTF-8 %s > fixed.jsonl)",
                            file, line, at, at - from + 1, bytes[at] & 0xff, file),
                    new CharacterCodingException());
        }
        utf8.flush(out);
        return out.flip().toString();
    }
}
