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
package io.nearline.common.schema;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.DeadLetter;
import io.nearline.common.avro.Op;
import java.util.HashSet;
import java.util.Set;
import org.apache.avro.util.ClassSecurityValidator;

/**
 * Avro (since 1.11.4) instantiates only classes it trusts while decoding. Our generated model must be
 * on that list; {@link #ensure} adds exactly the classes named, once, keeping whatever else is trusted.
 */
public final class TrustedAvroClasses {

    private static final Set<Class<?>> TRUSTED = new HashSet<>();

    private TrustedAvroClasses() {}

    /** Trusts the shared model (change events, dead letters). */
    public static void ensure() {
        ensure(ChangeEvent.class, DeadLetter.class, Op.class);
    }

    /** Trusts a job's own generated model classes too. */
    public static synchronized void ensure(Class<?>... classes) {
        ClassSecurityValidator.Builder added = ClassSecurityValidator.builder();
        boolean any = false;
        for (Class<?> c : classes) {
            if (TRUSTED.add(c)) {
                added.add(c);
                any = true;
            }
        }
        if (any) {
            ClassSecurityValidator.setGlobal(
                    ClassSecurityValidator.composite(ClassSecurityValidator.getGlobal(), added.build()));
        }
    }
}
