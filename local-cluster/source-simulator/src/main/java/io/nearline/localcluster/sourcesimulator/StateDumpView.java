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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.version.Version;
import io.nearline.jobs.checker.CacheView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A cache state dump (JSON lines {@code {"key","scn","schemaVersion","tombstone","payload"}}) as a {@link CacheView}. */
public final class StateDumpView implements CacheView {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<CacheKey, CacheRecord> records = new HashMap<>();

    public StateDumpView(Path file) {
        try {
            long number = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n;
                try {
                    n = JSON.readTree(line);
                } catch (IOException e) {
                    throw new IllegalArgumentException(file + " line " + number + " is not JSON (a truncated file?)");
                }
                if (n == null || !n.hasNonNull("key") || !n.path("scn").canConvertToLong()) {
                    throw new IllegalArgumentException(file + " line " + number + " is not a state-dump line: " + line);
                }
                Version version = Version.of(
                        n.get("scn").asLong(),
                        n.path("seq").asLong(0),
                        n.path("schemaVersion").asInt(0));
                CacheRecord record = n.path("tombstone").asBoolean(false)
                        ? CacheRecord.tombstone(version, 0)
                        : CacheRecord.upsert(
                                version, 0, n.path("payload").asText("").getBytes(StandardCharsets.UTF_8));
                records.put(CacheKey.of(n.get("key").asText()), record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read state dump " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<CacheRecord> get(CacheKey key) {
        return Optional.ofNullable(records.get(key));
    }

    public Set<CacheKey> keys() {
        return Set.copyOf(records.keySet());
    }
}
