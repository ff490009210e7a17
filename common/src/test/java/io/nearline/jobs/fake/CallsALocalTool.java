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
package io.nearline.jobs.fake;

import io.nearline.localcluster.fake.FakeTool;

/** An operator's tool (deploy, the cluster file, the verifier) using the local stack above it: an arrow up. */
public final class CallsALocalTool {

    private CallsALocalTool() {}

    public static int run() {
        return FakeTool.run();
    }
}
