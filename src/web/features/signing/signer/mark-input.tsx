import { KeyboardIcon, PenLineIcon, UploadIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { TSignatureMarkInput } from '../../../../contract/signature-requests';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { cn } from '../../../lib/utils';
import { SignatureCanvas } from './signature-canvas';

type TMarkMode = TSignatureMarkInput['type'];

const MAX_UPLOAD_BYTES = 1024 * 1024;
const UPLOAD_TYPES = ['image/png', 'image/jpeg'];

const SCRIPT_FONT = "'Dancing Script', 'Segoe Script', cursive";

let scriptFaceUrl: Promise<string | null> | null = null;
/** The handwriting face loads with the first preview; without it the preview falls back to a cursive face. */
function loadScriptFace(): Promise<string | null> {
  scriptFaceUrl ??= import('@expo-google-fonts/dancing-script/400Regular/DancingScript_400Regular.ttf?url').then(
    (font) => font.default,
    () => null,
  );
  return scriptFaceUrl;
}

/**
 * The face a typed signature is printed in on the PDF, so the preview shows what the document
 * will. React hoists and de-duplicates the rule by its href, however many previews there are.
 */
function ScriptFace() {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void loadScriptFace().then((loaded) => live && setUrl(loaded));
    return () => {
      live = false;
    };
  }, []);
  if (!url) return null;
  return (
    <style href="formwork-dancing-script" precedence="default">
      {`@font-face { font-family: 'Dancing Script'; src: url('${url}') format('truetype'); font-display: swap; }`}
    </style>
  );
}

const MODE_TABS: Record<TMarkMode, { label: string; icon: typeof KeyboardIcon }> = {
  typed: { label: 'Type', icon: KeyboardIcon },
  drawn: { label: 'Draw', icon: PenLineIcon },
  uploaded: { label: 'Upload', icon: UploadIcon },
};

/**
 * Every tab stays mounted, only hidden, so a drawing or a chosen file is still there after a look
 * at another tab.
 */
const PANEL = 'grid gap-2 rounded-md focus-visible:ring-2 focus-visible:ring-ring data-[state=inactive]:hidden';

/** A data URL's base64 part: the server reads PNG and JPEG alike from the bytes. */
const base64Of = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/**
 * A signature or initials, typed (previewed in the handwriting face), drawn, or uploaded as an
 * image. Reports the mark of the chosen tab, or null while that tab holds none.
 */
export function MarkInput({
  what,
  defaultText,
  modes,
  defaultMode,
  onChange,
}: {
  /** "signature" or "initials": names the controls. */
  what: 'signature' | 'initials';
  defaultText: string;
  modes: readonly TMarkMode[];
  defaultMode: TMarkMode;
  onChange: (mark: TSignatureMarkInput | null) => void;
}) {
  const id = useId();
  const [mode, setMode] = useState<TMarkMode>(defaultMode);
  const [text, setText] = useState(defaultText);
  const [drawn, setDrawn] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<{ dataUrl: string; name: string } | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);

  useEffect(() => {
    const typed = text.trim();
    if (mode === 'typed') onChange(typed ? { type: 'typed', text: typed } : null);
    else if (mode === 'drawn') onChange(drawn ? { type: 'drawn', png: base64Of(drawn) } : null);
    else onChange(uploaded ? { type: 'uploaded', png: base64Of(uploaded.dataUrl) } : null);
  }, [mode, text, drawn, uploaded, onChange]);

  const pickFile = async (file: File | undefined) => {
    setUploadError(null);
    if (!file) return;
    if (!UPLOAD_TYPES.includes(file.type)) {
      setUploaded(null);
      setUploadError('Choose a PNG or JPEG image.');
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setUploaded(null);
      setUploadError('This image is larger than 1 MB. Choose a smaller one.');
      return;
    }
    try {
      setUploaded({ dataUrl: await readAsDataUrl(file), name: file.name });
    } catch {
      setUploaded(null);
      setUploadError('This file could not be read. Choose another image.');
    }
  };

  return (
    <Tabs value={mode} onValueChange={(value) => setMode(value as TMarkMode)} className="grid gap-3">
      <TabsList className="w-full" aria-label={`How to give your ${what}`}>
        {modes.map((m) => {
          const { label, icon: Icon } = MODE_TABS[m];
          return (
            <TabsTrigger key={m} value={m}>
              <Icon aria-hidden /> {label}
            </TabsTrigger>
          );
        })}
      </TabsList>

      <TabsContent value="typed" forceMount className={PANEL}>
        <ScriptFace />
        <Label htmlFor={`${id}-text`}>{what === 'signature' ? 'Type your name as your signature' : 'Type your initials'}</Label>
        <Input
          id={`${id}-text`}
          dir="auto"
          autoComplete={what === 'signature' ? 'name' : 'off'}
          maxLength={what === 'signature' ? 100 : 10}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <div
          className={cn(
            'flex min-h-20 items-center justify-center overflow-hidden rounded-lg border border-dashed bg-background px-4 py-2 text-center text-[#1e2a5a]',
            what === 'signature' ? 'text-4xl' : 'text-3xl',
          )}
          style={{ fontFamily: SCRIPT_FONT }}
          aria-hidden
        >
          <span dir="auto" className="break-all">
            {text.trim() || ' '}
          </span>
        </div>
        <p className="text-xs text-muted-foreground">
          {what === 'signature' ? 'Your signature as it will appear on the document.' : 'Your initials as they will appear on the document.'}
        </p>
      </TabsContent>

      {modes.includes('drawn') && (
        <TabsContent value="drawn" forceMount className={PANEL}>
          <SignatureCanvas
            label={what === 'signature' ? 'Signature drawing area' : 'Initials drawing area'}
            heightClass={what === 'signature' ? 'h-40' : 'h-28'}
            onChange={setDrawn}
          />
        </TabsContent>
      )}

      {modes.includes('uploaded') && (
        <TabsContent value="uploaded" forceMount className={PANEL}>
          <Label htmlFor={`${id}-file`}>Image of your {what} (PNG or JPEG, up to 1 MB)</Label>
          <input
            id={`${id}-file`}
            type="file"
            accept={UPLOAD_TYPES.join(',')}
            aria-describedby={uploadError ? `${id}-file-error` : undefined}
            aria-invalid={uploadError ? true : undefined}
            className="block w-full min-w-0 rounded-md text-sm text-muted-foreground file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-foreground hover:file:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            onChange={(event) => void pickFile(event.target.files?.[0])}
          />
          {uploadError && (
            <p id={`${id}-file-error`} role="alert" className="text-[13px] text-destructive">
              {uploadError}
            </p>
          )}
          {uploaded && (
            <div className="flex min-h-20 items-center justify-center rounded-lg border border-dashed bg-background p-3">
              <img src={uploaded.dataUrl} alt={`Your uploaded ${what}`} className="max-h-28 max-w-full object-contain" />
            </div>
          )}
        </TabsContent>
      )}
    </Tabs>
  );
}
