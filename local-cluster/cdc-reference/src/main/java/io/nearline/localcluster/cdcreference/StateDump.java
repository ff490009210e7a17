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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.store.CacheStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The cache state as JSON lines sorted by key (the state-dump text form, docs/semantics.md):
 * {@code {"key","scn","seq","schemaVersion","tombstone","payload"}} (seq only where not 0), payload (UTF-8 text) absent for
 * tombstones. Keys without a live record are left out. The store has no scan, so the caller names
 * the keys (a replay knows every key it sent).
 */
public final class StateDump {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StateDump() {}

    public static List<String> lines(CacheStore store, Collection<CacheKey> keys) {
        List<String> out = new ArrayList<>();
        for (CacheKey key : new TreeSet<>(keys)) {
            store.get(key).ifPresent(stored -> out.add(line(key, CacheRecordCodec.decode(stored.value()))));
        }
        return out;
    }

    public static String line(CacheKey key, CacheRecord record) {
        ObjectNode node = JSON.createObjectNode();
        node.put("key", key.value());
        node.put("scn", record.version().scn().value());
        if (record.version().seq() != 0) {
            node.put("seq", record.version().seq()); // only a Debezium source's versions have one
        }
        node.put("schemaVersion", record.version().schemaVersion());
        node.put("tombstone", record.tombstone());
        if (!record.tombstone()) {
            node.put("payload", new String(record.payload(), StandardCharsets.UTF_8));
        }
        return node.toString();
    }
}
