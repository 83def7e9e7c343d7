import { useId } from "react";
import { ImageDropZone } from "./ImageDropZone";
import { ImagePreview, UploadMessage, UploadProgress } from "./ImageUploadStatus";
import { FIELD_TEXT } from "./image-upload-text";
import { useHydrated } from "./use-hydrated";
import { useImageUpload } from "./use-image-upload";

export type ImageUploadFieldProps = {
  side: "before" | "after";
  /** The group's visible name: "Before image" / "After image". */
  label: string;
  /** The image already chosen (editing, or kept after a failed save). */
  initialUrl?: string;
  /** The alt text the admin typed earlier ("" or undefined: the default). */
  initialAlt?: string;
  /** The alt text used when the admin types none ("Before: <title>"), live from the title field. */
  defaultAlt: string;
  /** The server's message about this image, shown inline. */
  error?: string;
  /** True while an upload runs (the form disables Save), false when it ends. */
  onUploadingChange?: (uploading: boolean) => void;
  /** The file input's id (for links from an error summary); generated when absent. */
  id?: string;
};

const ALT_MAX_LENGTH = 250;

const INPUT =
  "mt-2 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0";

/**
 * One of the project form's two images: a preview of the current one, a drop
 * zone, and its alt text. Sends (see docs: the form's contract)
 * `<side>_image_url` (hidden: the current image's URL, "" for none),
 * `<side>_image_file` (a file, only without JavaScript) and `<side>_image_alt`
 * ("" for the default).
 *
 * Without JavaScript it is a plain labelled file input the multipart form
 * carries. With it, a chosen or dropped file is checked, made smaller when
 * over 2 MB, and uploaded at once with real progress; its URL then goes into
 * the hidden input and the file input is emptied, so the form does not send
 * the bytes again.
 *
 * Its parts: the state and the upload (use-image-upload), the picker
 * (ImageDropZone), the preview, progress and message (ImageUploadStatus).
 */
export function ImageUploadField({ side, label, initialUrl, initialAlt, defaultAlt, error, onUploadingChange, id }: ImageUploadFieldProps) {
  const hydrated = useHydrated();
  const baseId = useId();
  const fileId = id ?? `${baseId}file`;
  const legendId = `${baseId}legend`;
  const actionId = `${baseId}action`;
  const hintId = `${baseId}hint`;
  const messageId = `${baseId}message`;
  const progressLabelId = `${baseId}progress`;
  const altId = `${baseId}alt`;
  const altHintId = `${baseId}alt-hint`;

  const { url, alt, setAlt, shownMessage, progress, uploading, announcement, inputRef, start, remove } = useImageUpload({
    label,
    initialUrl,
    initialAlt,
    error,
    onUploadingChange,
  });

  const describedBy = [hintId, shownMessage ? messageId : undefined].filter(Boolean).join(" ");

  return (
    <fieldset className="min-w-0 rounded-xl border border-slate-200 p-4">
      <legend id={legendId} className="px-1 text-sm font-semibold text-slate-900">
        {label}
      </legend>

      <input type="hidden" name={`${side}_image_url`} value={url} />

      {url ? <ImagePreview url={url} alt={alt} defaultAlt={defaultAlt} side={side} hydrated={hydrated} uploading={uploading} onRemove={remove} /> : null}

      <ImageDropZone
        hydrated={hydrated}
        side={side}
        hasImage={Boolean(url)}
        uploading={uploading}
        inputRef={inputRef}
        fileId={fileId}
        legendId={legendId}
        actionId={actionId}
        hintId={hintId}
        describedBy={describedBy}
        invalid={Boolean(shownMessage)}
        onFiles={(files) => void start(files)}
      />

      {uploading ? <UploadProgress progress={progress} labelId={progressLabelId} /> : null}

      {/* Announces the start and end of an upload; the changing percentage is left to the progress bar. */}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>

      {shownMessage ? <UploadMessage id={messageId} message={shownMessage} /> : null}

      <div className="mt-4">
        <label htmlFor={altId} className="block text-sm font-medium text-slate-800">
          {FIELD_TEXT.altLabel(side)}
        </label>
        <input
          id={altId}
          name={`${side}_image_alt`}
          type="text"
          value={alt}
          onChange={(event) => setAlt(event.currentTarget.value)}
          maxLength={ALT_MAX_LENGTH}
          placeholder={defaultAlt}
          autoComplete="off"
          aria-describedby={altHintId}
          className={INPUT}
        />
        <p id={altHintId} className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-600">
          {FIELD_TEXT.altHint(defaultAlt)}
        </p>
      </div>
    </fieldset>
  );
}
