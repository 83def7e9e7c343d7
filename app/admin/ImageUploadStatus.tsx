import { Icon } from "~/components/Icon";
import { FIELD_TEXT } from "./image-upload-text";

/** The image chosen, with a button to remove it once hydrated. */
export function ImagePreview({
  url,
  alt,
  defaultAlt,
  side,
  hydrated,
  uploading,
  onRemove,
}: {
  url: string;
  alt: string;
  defaultAlt: string;
  side: "before" | "after";
  hydrated: boolean;
  uploading: boolean;
  onRemove: () => void;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-end gap-3">
      <img
        src={url}
        alt={alt.trim() || defaultAlt}
        width={240}
        height={180}
        className="h-[180px] w-[240px] max-w-full rounded-lg bg-slate-100 object-cover ring-1 ring-slate-200"
      />
      {hydrated ? (
        <button
          type="button"
          onClick={onRemove}
          disabled={uploading}
          aria-label={`Remove ${side} image`}
          className="inline-flex min-h-10 items-center gap-1.5 rounded-lg bg-white px-3 py-2 text-sm font-medium text-red-800 ring-1 ring-red-300 transition-colors hover:bg-red-50 disabled:cursor-wait disabled:opacity-70 motion-reduce:transition-none"
        >
          <Icon name="trash" className="size-4" />
          {FIELD_TEXT.remove}
        </button>
      ) : null}
    </div>
  );
}

/** The running upload's progress bar. */
export function UploadProgress({ progress, labelId }: { progress: number | null; labelId: string }) {
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <div className="mt-3">
      <div className="flex items-center justify-between gap-3 text-sm text-slate-800">
        <span id={labelId}>{FIELD_TEXT.uploading}</span>
        <span aria-hidden="true" className="font-medium tabular-nums">
          {percent}%
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
        className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-blue-700 transition-[width] duration-200 motion-reduce:transition-none" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** A refused file, a failed upload or the server's word about this image. */
export function UploadMessage({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} role="alert" className="mt-3 flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
      <Icon name="exclamation" className="mt-px size-4 shrink-0" />
      <span>{message}</span>
    </p>
  );
}
