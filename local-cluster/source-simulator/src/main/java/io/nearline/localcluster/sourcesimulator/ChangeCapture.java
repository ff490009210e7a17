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

import io.nearline.common.avro.ChangeEvent;

/**
 * Where the source of truth publishes each commit, as a change-capture stream does (a CDC topic in
 * the local stack, a list in tests). Called in commit order within a partition.
 */
@FunctionalInterface
public interface ChangeCapture {
    void publish(ChangeEvent event);

    ChangeCapture NONE = event -> {};
}
