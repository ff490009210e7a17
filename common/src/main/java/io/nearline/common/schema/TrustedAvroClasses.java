package io.nearline.common.schema;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.DeadLetter;
import io.nearline.common.avro.Op;
import org.apache.avro.util.ClassSecurityValidator;

/**
 * Avro (since 1.11.4) instantiates only classes it trusts while decoding. Our generated model must be
 * on that list; {@link #ensure} adds exactly these classes, once, keeping whatever else is trusted.
 */
public final class TrustedAvroClasses {

    private static boolean done;

    private TrustedAvroClasses() {
    }

    public static synchronized void ensure() {
        if (!done) {
            ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(ClassSecurityValidator.getGlobal(),
                    ClassSecurityValidator.builder().add(ChangeEvent.class).add(DeadLetter.class).add(Op.class).build()));
            done = true;
        }
    }
}
