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
package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.common.cache.CacheKey;

/**
 * A change on its way from the decode to the write, keyed by its cache key: what the write path needs
 * of it, made once where it was decoded ({@link UpdateBatch.Pending}: its table and commit time, the
 * cache record, the record it was read as). Records all the way down, so Flink moves it with its
 * POJO serializer, field by field.
 */
public record Change(CacheKey key, UpdateBatch.Pending pending) {}
