import type { RefObject } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { MAX_SUBJECT_LENGTH } from '../../../contract/mail';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Textarea } from '../../components/ui/textarea';

type TRegisteredField = { registration: UseFormRegisterReturn; error: string | undefined };

/** The subject and message an account that may write its own words sends with a document. */
export function OwnWordsFields({
  id,
  subject,
  message,
  messageRef,
}: {
  id: string;
  subject: TRegisteredField;
  message: TRegisteredField;
  /** Where a field inserted into the message goes: the textarea's cursor. */
  messageRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  return (
    <>
      <Field id={`${id}-subject`} label="Subject" error={subject.error}>
        <Input id={`${id}-subject`} maxLength={MAX_SUBJECT_LENGTH} aria-invalid={subject.error ? true : undefined} {...subject.registration} />
      </Field>
      <Field id={`${id}-message`} label="Message" error={message.error}>
        <Textarea
          id={`${id}-message`}
          rows={6}
          aria-invalid={message.error ? true : undefined}
          {...message.registration}
          ref={(el) => {
            message.registration.ref(el);
            if (messageRef) messageRef.current = el;
          }}
        />
      </Field>
    </>
  );
}
