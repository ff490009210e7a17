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
package io.nearline.jobs;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Reads a Samza package (.tar.gz, ustar) entry by entry, without unpacking it to disk. */
final class TarGz {

    interface EntryReader {
        void read(String name, byte[] body) throws IOException;
    }

    private TarGz() {}

    static void forEachEntry(Path tarGz, EntryReader reader) throws IOException {
        try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(tarGz)))) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                String name = field(header, 0, 100);
                String prefix = field(header, 345, 155);
                if (!prefix.isEmpty()) {
                    name = prefix + "/" + name;
                }
                long size = Long.parseLong(field(header, 124, 12), 8);
                byte[] body = in.readNBytes((int) Math.min(size, Integer.MAX_VALUE));
                in.skipNBytes((512 - size % 512) % 512);
                reader.read(name, body);
            }
        }
    }

    private static String field(byte[] header, int offset, int length) {
        return new String(header, offset, length, StandardCharsets.US_ASCII)
                .replace("\0", "")
                .trim();
    }
}
