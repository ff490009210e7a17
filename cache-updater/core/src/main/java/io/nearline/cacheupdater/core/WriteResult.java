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
package io.nearline.cacheupdater.core;

import io.nearline.common.version.Version;

/**
 * The result of one SCN-ordered write.
 *
 * @param outcome  what happened
 * @param winner   the version stored when the write finished deciding: the incoming one when
 *                 APPLIED or DUPLICATE, the newer stored one when STALE, {@link Version#NONE} when FAILED
 * @param attempts store round trips (read + mutate) it took, 1 without conflicts
 * @param failure  why it FAILED, else null
 */
public record WriteResult(WriteOutcome outcome, Version winner, int attempts, Throwable failure) {}
