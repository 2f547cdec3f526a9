// A call's text over the output limits, cut where the tool ran: the
// runner writes the whole text to a temporary file in the host's output
// folder and sends the host only the head, the size and the file's name.
// A huge output then never crosses to the host, nor is it encoded whole.

import { join } from "node:path";
import { cutContent } from "./_content.ts";
import type { CallResult, CutText, OutputFolder } from "./_protocol.ts";
import { savedName, tempName, writeWhole } from "./_spill.ts";
import { overLimits, truncatedText } from "./_truncate.ts";

/**
 * `text` cut as the host would cut it, with what the host needs to finish
 * the save; `undefined` when it is within the output limits, or when writing it
 * failed (the host then cuts it from the whole text, as for a runner with
 * no output folder).
 */
async function cutText(
  text: string,
  tool: string,
  output: OutputFolder,
): Promise<{ text: string; cut: CutText } | undefined> {
  const size = overLimits(text);
  if (size === undefined) return undefined;
  if (size.bytes > output.maxBytes) {
    const cut = truncatedText(text, { notSaved: output.maxBytes }, size);
    return { text: cut.text, cut: { size: size.bytes } };
  }
  const name = savedName(tool);
  const temp = tempName(name);
  try {
    await writeWhole(join(output.dir, temp), text);
  } catch {
    return undefined;
  }
  const cut = truncatedText(text, { path: join(output.shown, name) }, size);
  return { text: cut.text, cut: { size: size.bytes, saved: { name, temp } } };
}

/**
 * A call's result with its text cut where it is over the output limits: an
 * output (its text blocks replaced by the cut, as the host does), or an
 * error message (saved as `<tool>-error-…`). Anything else as it was.
 */
export async function cutResult(
  result: CallResult,
  tool: string,
  output: OutputFolder,
): Promise<CallResult> {
  if (!result.ok) {
    if (result.notRun) return result;
    const cut = await cutText(result.error, `${tool}-error`, output);
    return cut
      ? { ok: false, status: "error", error: cut.text, cut: cut.cut }
      : result;
  }
  const cut = await cutText(result.output, tool, output);
  if (!cut) return result;
  // A cut output carries no structured value, as the host gives none.
  return result.content
    ? {
      ok: true,
      output: cut.text,
      content: cutContent(result.content, cut.text),
      cut: cut.cut,
    }
    : { ok: true, output: cut.text, cut: cut.cut };
}
