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
package io.nearline.jobs.client;

import java.util.List;
import java.util.Optional;

/**
 * Where a read goes when the cache cannot answer within its bound: the source of truth. The row comes
 * back in the form the job caches (for a Debezium job: Debezium's JSON image of the row), so that the
 * write-back holds what the job itself would have written.
 */
public interface RowSource {

    /** The row of {@code table} whose key columns hold {@code keyValues}, as bytes; empty where there is none. */
    Optional<byte[]> read(String table, List<String> keyValues) throws Exception;
}
