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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Utf8LinesTest {

    @Test
    void readsUtf8LinesWhateverTheirEndsAndNamesTheFirstByteThatIsNot(@TempDir Path dir) throws Exception {
        Path good = Files.write(
                dir.resolve("good.txt"), "caf\u00e9 \ud83d\ude42\r\n\nlast".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("caf\u00e9 \ud83d\ude42", "", "last"), Utf8Lines.read(good));
        assertEquals(List.of("a"), Utf8Lines.read(Files.writeString(dir.resolve("one.txt"), "a\n")));

        Path latin1 = Files.write(dir.resolve("latin1.txt"), "ok\ncaf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Utf8Lines.read(latin1));
        assertTrue(
                e.getMessage().contains("is not UTF-8: line 2, byte 6 of the file (column 4 of the line) is 0xE9"),
                e.getMessage());
        assertTrue(e.getMessage().contains("iconv"), "says what to do: " + e.getMessage());

        UncheckedIOException missing =
                assertThrows(UncheckedIOException.class, () -> Utf8Lines.read(dir.resolve("nope.txt")));
        assertTrue(missing.getMessage().startsWith("cannot read "), missing.getMessage());
    }
}
