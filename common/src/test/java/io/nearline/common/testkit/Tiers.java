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

/**
 * Test tiers beyond the unit and integration split. {@code ./mvnw verify} leaves out the tests tagged
 * {@link #SLOW}; {@code ./mvnw verify -Dfull} runs them too.
 */
public final class Tiers {

    /**
     * A scenario the default tier already runs in another form (the same crash on the embedded store,
     * the same deploy target through another job), repeated against another store, source or target:
     * run before a release and where that store, source or target changed.
     */
    public static final String SLOW = "slow";

    private Tiers() {}
}
