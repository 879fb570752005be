import { useId } from 'react';
import { LANGUAGES, languageName } from '../../../contract/languages';
import { NativeSelect } from './controls';
import { fixField } from './finding-targets';

/**
 * The language an element's text is in, when it is not the format's: a tagged document tells a
 * screen reader to switch voice there. Unset, it is the section's, else the format's.
 */
export function ElementLanguageField({
  kind,
  lang,
  inherited,
  onChange,
}: {
  /** What the element is, as the canvas names it ("Paragraph"): the format has a Language of its own. */
  kind: string;
  lang: string | undefined;
  /** The language it has unless set: its section's, else the format's. */
  inherited: { tag: string; from: 'section' | 'format' };
  onChange: (lang: string | undefined) => void;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const tags = [...new Set([...(lang ? [lang] : []), ...LANGUAGES])];
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {kind} language
      </label>
      <NativeSelect
        id={id}
        className="w-auto max-w-full min-w-0"
        value={lang ?? ''}
        aria-describedby={hintId}
        onChange={(e) => onChange(e.target.value || undefined)}
        {...fixField('element-language')}
      >
        <option value="">
          {inherited.from === 'section' ? 'The section’s' : 'The format’s'} ({languageName(inherited.tag)})
        </option>
        {tags.map((tag) => (
          <option key={tag} value={tag}>
            {languageName(tag)}
          </option>
        ))}
      </NativeSelect>
      <p id={hintId} className="basis-full text-xs text-muted-foreground">
        For text in another language than the rest, so that screen readers read it in the right voice.
      </p>
    </div>
  );
}
