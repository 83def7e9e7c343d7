import { useState, type DragEvent, type Ref } from "react";
import { Icon } from "~/components/Icon";
import { IMAGE_ACCEPT } from "~/images/image-files";
import { FIELD_TEXT } from "./image-upload-text";

export type ImageDropZoneProps = {
  /** False in the server's HTML and during hydration: a plain labelled file input. */
  hydrated: boolean;
  side: "before" | "after";
  /** An image is chosen already: the action reads "Replace image". */
  hasImage: boolean;
  uploading: boolean;
  inputRef: Ref<HTMLInputElement>;
  fileId: string;
  legendId: string;
  actionId: string;
  hintId: string;
  describedBy: string;
  invalid: boolean;
  /** Files chosen or dropped, once hydrated. */
  onFiles: (files: FileList | null) => void;
};

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes("Files");
}

/**
 * The image field's picker: once hydrated, a drop zone around a hidden file
 * input; before, the file input itself, which the multipart form carries.
 */
export function ImageDropZone({
  hydrated,
  side,
  hasImage,
  uploading,
  inputRef,
  fileId,
  legendId,
  actionId,
  hintId,
  describedBy,
  invalid,
  onFiles,
}: ImageDropZoneProps) {
  const [dragging, setDragging] = useState(false);

  function onDragOver(event: DragEvent<HTMLLabelElement>) {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = uploading ? "none" : "copy";
    if (!uploading) setDragging(true);
  }

  function onDragLeave(event: DragEvent<HTMLLabelElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
  }

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    if (!uploading) onFiles(event.dataTransfer.files);
  }

  const zoneState = uploading
    ? "cursor-wait border-slate-300 bg-slate-50 opacity-70"
    : dragging
      ? "cursor-copy border-blue-600 bg-blue-50"
      : "cursor-pointer border-slate-300 bg-white hover:border-blue-500 hover:bg-slate-50";

  // The same input before and after hydration; only its look and its handler differ.
  const fileInput = {
    ref: inputRef,
    id: fileId,
    side,
    labelledBy: `${legendId} ${actionId}`,
    describedBy,
    invalid,
  };

  return hydrated ? (
    <label
      htmlFor={fileId}
      aria-disabled={uploading || undefined}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      className={`relative flex min-h-32 flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600 motion-reduce:transition-none ${zoneState}`}
    >
      <Icon name="arrowUpTray" className="size-8 text-slate-500" />
      {dragging ? (
        <span id={actionId} className="font-medium text-blue-900">
          {FIELD_TEXT.drop}
        </span>
      ) : (
        <span>
          <span id={actionId} className="font-medium text-blue-800 underline underline-offset-2">
            {hasImage ? FIELD_TEXT.replace : FIELD_TEXT.choose}
          </span>{" "}
          <span className="text-slate-700 pointer-coarse:hidden">{FIELD_TEXT.drag}</span>
        </span>
      )}
      <span id={hintId} className="text-sm text-slate-600">
        {FIELD_TEXT.hint}
      </span>
      <FileInput {...fileInput} uploading={uploading} className="sr-only" onFiles={onFiles} />
    </label>
  ) : (
    <div>
      <label id={actionId} htmlFor={fileId} className="block text-sm font-medium text-slate-800">
        {hasImage ? FIELD_TEXT.replace : FIELD_TEXT.choose}
      </label>
      <span id={hintId} className="mt-1 block text-sm text-slate-600">
        {FIELD_TEXT.hint}
      </span>
      <FileInput
        {...fileInput}
        uploading={false}
        className="mt-2 block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:cursor-pointer file:rounded-lg file:border-0 file:bg-blue-700 file:px-4 file:py-2 file:font-medium file:text-white hover:file:bg-blue-800"
      />
    </div>
  );
}

function FileInput({
  ref,
  id,
  side,
  labelledBy,
  describedBy,
  invalid,
  uploading,
  className,
  onFiles,
}: {
  ref: Ref<HTMLInputElement>;
  id: string;
  side: "before" | "after";
  labelledBy: string;
  describedBy: string;
  invalid: boolean;
  uploading: boolean;
  className: string;
  onFiles?: (files: FileList | null) => void;
}) {
  return (
    <input
      ref={ref}
      id={id}
      type="file"
      name={`${side}_image_file`}
      accept={IMAGE_ACCEPT}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy || undefined}
      aria-invalid={invalid || undefined}
      // Not `disabled` while uploading: that would drop the keyboard's focus to the page's start.
      // The picker stays shut instead, and assistive technology hears "unavailable".
      aria-disabled={uploading || undefined}
      onClick={(event) => {
        if (uploading) event.preventDefault();
      }}
      onChange={onFiles ? (event) => onFiles(event.currentTarget.files) : undefined}
      className={className}
    />
  );
}
