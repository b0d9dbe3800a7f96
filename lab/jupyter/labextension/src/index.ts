/**
 * A file open in the lab follows the file on disk while it has no unsaved edits, and the lab says so when an
 * open agent.py differs from the file on disk that the notebooks grade.
 *
 * `spec2code reset` (or any program) may rewrite lab/agent.py or a notebook while it is open. Stock JupyterLab
 * keeps showing the old text, and the next save offers to overwrite the new file with it. Every POLL_MS this
 * plugin asks the server, for each open document, whether the file on disk differs from the one it loaded (by
 * hash where the server gives one, else by modification time, as JupyterLab's own save does). If it does and the
 * document has no unsaved edits, the document is reloaded from disk.
 *
 * A document with unsaved edits is never reloaded by itself: the student's typing is not thrown away. Instead it
 * gets one warning per change on disk, with one way out: show the file on disk, once the unsaved text is kept in
 * saved/ beside it (where `spec2code reset` keeps the file it replaces). And since the check, try and progress cells read lab/agent.py from disk, not from its tab, running such a
 * cell while an agent.py tab has unsaved edits warns that the cell uses the file as last saved. Without these
 * warnings a student sees one text and is graded on another, and nothing on the screen says why.
 */

import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import type { DocumentRegistry, IDocumentWidget } from '@jupyterlab/docregistry';
import { NotebookActions } from '@jupyterlab/notebook';

const POLL_MS = 2000; // how often the open documents are compared with the disk
const MARGIN_MS = 500; // modification times closer than this count as the same (JupyterLab's own margin)
const CELL_WARNING_MS = 10_000; // how long the warning on running a cell stays up
const MAX_MESSAGE = 140; // JupyterLab cuts a notification's text after this many characters
const GRADED_FILE = 'agent.py'; // the learner's file, read from disk by the cells that match USES_THE_FILE
const USES_THE_FILE = /check_step\(|try_function\(|progress\(|(from|import)\s+lab\.jupyter/;

type Context = DocumentRegistry.Context;

/** The warnings shown for a document: the disk version announced and its notification, the last cell's. */
interface Warnings {
  disk?: { version: string; id: string };
  cell?: string;
}

const shown = new WeakMap<Context, Warnings>();

function warningsOf(context: Context): Warnings {
  let warnings = shown.get(context);
  if (!warnings) {
    warnings = {};
    shown.set(context, warnings);
  }
  return warnings;
}

/** The documents open in the main area, once each (a document may be open in several tabs). */
function openDocuments(app: JupyterFrontEnd): Set<Context> {
  const found = new Set<Context>();
  for (const widget of app.shell.widgets('main')) {
    if (!('context' in widget)) {
      continue; // not a document: a launcher, a terminal, ...
    }
    const context = (widget as IDocumentWidget).context;
    if (context.isReady && !context.isDisposed) {
      found.add(context);
    }
  }
  return found;
}

/** The version of the file on disk (its hash or modification time) if it is not the one the document holds. */
async function newerOnDisk(app: JupyterFrontEnd, context: Context): Promise<string | null> {
  const loaded = context.contentsModel;
  if (!loaded) {
    return null;
  }
  const disk = await app.serviceManager.contents.get(context.path, { content: false, hash: true });
  if (loaded.hash && disk.hash) {
    return loaded.hash !== disk.hash ? disk.hash : null;
  }
  const newer = new Date(disk.last_modified).getTime() - new Date(loaded.last_modified).getTime() > MARGIN_MS;
  return newer ? disk.last_modified : null;
}

/** A message naming the file by its path, or by its name alone where the path would make it too long to show. */
function naming(path: string, message: (file: string) => string): string {
  const full = message(path);
  return full.length <= MAX_MESSAGE ? full : message(path.split('/').pop() ?? path);
}

/** Say once per change on disk that a document with unsaved edits no longer shows the file on disk. */
function warnChangedOnDisk(app: JupyterFrontEnd, context: Context, version: string): void {
  const warnings = warningsOf(context);
  if (warnings.disk?.version === version) {
    return; // already said
  }
  if (warnings.disk) {
    Notification.dismiss(warnings.disk.id);
  }
  const message = naming(
    context.path,
    file => `${file} changed on disk (by spec2code reset?), but its tab still shows your unsaved edits.`
  );
  const id = Notification.warning(message, {
    autoClose: false, // the student must choose: it stays until they do, or close it
    actions: [
      {
        label: 'Show the file on disk',
        caption: 'Your unsaved edits are kept first, in the saved folder beside the file.',
        displayType: 'accent',
        callback: () => void showTheDisk(app, context)
      }
    ]
  });
  warnings.disk = { version, id };
}

/** Keep a document's unsaved text in saved/ beside its file, then show the file on disk; say where it went. */
async function showTheDisk(app: JupyterFrontEnd, context: Context): Promise<void> {
  try {
    const kept = await keepAside(app, context);
    await context.revert();
    context.model.dirty = false;
    Notification.info(naming(kept, file => `Your unsaved edits are kept in ${file}.`), { autoClose: false });
  } catch (error) {
    Notification.error(`Your edits could not be kept (${error}), so the tab still shows them. Save them with Ctrl+S.`,
                       { autoClose: false });
  }
}

/** Write a document's text to saved/<name>-unsaved-YYYYmmdd-HHMMSS<ext> beside its file (never over an earlier
 * copy); return that path. */
async function keepAside(app: JupyterFrontEnd, context: Context): Promise<string> {
  const contents = app.serviceManager.contents;
  const slash = context.path.lastIndexOf('/');
  const folder = `${context.path.slice(0, slash + 1)}saved`;
  const name = context.path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const [stem, suffix] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const stamp = new Date().toISOString().slice(0, 19).replace(/-|:/g, '').replace('T', '-');
  try {
    await contents.get(folder, { content: false });
  } catch {
    await contents.save(folder, { type: 'directory' });
  }
  for (let n = 1; ; n++) {
    const kept = `${folder}/${stem}-unsaved-${stamp}${n > 1 ? `-${n}` : ''}${suffix}`;
    try {
      await contents.get(kept, { content: false });
      continue; // never over an earlier copy
    } catch {
      await contents.save(kept, { type: 'file', format: 'text', content: context.model.toString() });
      return kept;
    }
  }
}

/** Once a document shows what is on disk again (saved or reloaded), its warnings no longer apply. */
function withdrawWarnings(context: Context): void {
  const warnings = shown.get(context);
  if (warnings?.disk) {
    Notification.dismiss(warnings.disk.id);
  }
  if (warnings?.cell) {
    Notification.dismiss(warnings.cell);
  }
  shown.delete(context);
}

/** Reload every open document that has no unsaved edits and has changed on disk; warn about those with some. */
async function followTheDisk(app: JupyterFrontEnd): Promise<void> {
  for (const context of openDocuments(app)) {
    try {
      const version = await newerOnDisk(app, context);
      if (context.isDisposed) {
        continue;
      }
      if (context.model.dirty) {
        if (version) {
          warnChangedOnDisk(app, context, version);
        }
        continue;
      }
      withdrawWarnings(context);
      if (version) {
        await context.revert();
        context.model.dirty = false; // what is shown is what is on disk
      }
    } catch {
      // The file was moved or deleted, or the server is away: JupyterLab says so itself; try again next round.
    }
  }
}

/** When a cell that reads the learner's file from disk runs, warn about every open agent.py with unsaved edits. */
function warnOnRun(app: JupyterFrontEnd, source: string): void {
  if (!USES_THE_FILE.test(source)) {
    return;
  }
  for (const context of openDocuments(app)) {
    if (context.path.split('/').pop() !== GRADED_FILE || !context.model.dirty) {
      continue;
    }
    const warnings = warningsOf(context);
    if (warnings.cell) {
      Notification.dismiss(warnings.cell); // one at a time, however often the cell is run
    }
    const message = naming(
      context.path,
      file =>
        `${file} has unsaved changes. This cell uses the file as last saved. ` +
        'Save it (Ctrl+S in its tab) and run the cell again.'
    );
    warnings.cell = Notification.warning(message, {
      autoClose: CELL_WARNING_MS,
      actions: [
        {
          label: `Save ${GRADED_FILE}`,
          caption: `Save ${context.path} now (Ctrl+S in its tab does the same)`,
          displayType: 'accent',
          callback: () => void context.save().catch(() => undefined)
        }
      ]
    });
  }
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'spec2code-reload-from-disk:plugin',
  description: 'Reload an open file that changed on disk when it has no unsaved edits; warn when it has some.',
  autoStart: true,
  activate: (app: JupyterFrontEnd): void => {
    NotebookActions.executionScheduled.connect((_, { cell }) => {
      if (cell.model.type === 'code') {
        warnOnRun(app, cell.model.sharedModel.getSource());
      }
    });
    let busy = false;
    window.setInterval(async () => {
      if (busy || document.visibilityState === 'hidden') {
        return;
      }
      busy = true;
      try {
        await followTheDisk(app);
      } finally {
        busy = false;
      }
    }, POLL_MS);
  }
};

export default plugin;
