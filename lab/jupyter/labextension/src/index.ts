/**
 * A file open in the lab follows the file on disk while it has no unsaved edits; agent.py is saved for the student;
 * and the notebooks' tabs have titles a student can tell apart.
 *
 * `spec2code reset` (or any program) may rewrite lab/agent.py or a notebook while it is open. Stock JupyterLab
 * keeps showing the old text, and the next save offers to overwrite the new file with it. Every POLL_MS this
 * plugin asks the server, for each open document, whether the file on disk differs from the one it loaded (by
 * hash where the server gives one, else by modification time, as JupyterLab's own save does). If it does and the
 * document has no unsaved edits, the document is reloaded from disk.
 *
 * A document with unsaved edits is never reloaded by itself: the student's typing is not thrown away. Instead it
 * gets one warning per change on disk, with one way out: show the file on disk, once the unsaved text is kept in
 * saved/ beside it (where `spec2code reset` keeps the file it replaces).
 *
 * The lab turns JupyterLab's autosave off, or it would write every run's outputs into the notebooks. Files that are
 * not notebooks are saved here instead, once they have had unsaved edits for a round (never over a file that
 * changed on disk), so no typing is lost if the tab or the browser closes. JupyterLab marks a document saved when
 * its save returns, even if the student typed while the save was on its way: such a document is marked unsaved
 * again here, so that typing is saved a round later, and never graded or closed as if it were on disk.
 *
 * And run means save and run: the check, try and progress cells read lab/agent.py from disk, so running one saves
 * every agent.py with unsaved edits and sends the tab's text with the cell (SCREEN_KEY); the cell waits for the
 * save to land, or says in its own output which text it used (lab/jupyter/on_screen.py).
 */

import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import type { Cell } from '@jupyterlab/cells';
import type { DocumentRegistry, IDocumentWidget } from '@jupyterlab/docregistry';
import { NotebookActions } from '@jupyterlab/notebook';

const POLL_MS = 2000; // how often the open documents are compared with the disk
const MARGIN_MS = 500; // modification times closer than this count as the same (JupyterLab's own margin)
const MAX_MESSAGE = 140; // JupyterLab cuts a notification's text after this many characters
const GRADED_FILE = 'agent.py'; // the learner's file, read from disk by the cells that match USES_THE_FILE
const USES_THE_FILE = /check_step\(|try_function\(|progress\(|(from|import)\s+lab\.jupyter/;
const SCREEN_KEY = 'spec2code_unsaved'; // the cell metadata a run of such a cell sends: read by on_screen.py
const LAB_NOTEBOOK = /(?:^|\/)(\d\d)_(\w+)\.ipynb$/; // notebooks/01_extract_code.ipynb, shown as "1 extract_code"

type Context = DocumentRegistry.Context;

/** The warning shown for a document: the disk version announced and its notification; and how many rounds in a
 * row it has been seen with unsaved edits. */
interface Warnings {
  disk?: { version: string; id: string };
  dirtyRounds?: number;
}

const shown = new WeakMap<Context, Warnings>();
const saving = new WeakMap<Context, string>(); // documents with a save in flight (the lab's, or Ctrl+S): its text
const watched = new WeakSet<Context>();

/** Follow a document's saves: while one is in flight, the file on disk is ahead of the tab by design; and typing
 * that came while it was on its way is still unsaved when it returns. */
function watchSaves(context: Context): void {
  if (watched.has(context)) {
    return;
  }
  watched.add(context);
  context.saveState.connect((_, state) => {
    if (state === 'started') {
      saving.set(context, context.model.toString()); // JupyterLab takes the text it sends right after this signal
      return;
    }
    const sent = saving.get(context);
    saving.delete(context);
    if (state !== 'completed' || sent === undefined) {
      return;
    }
    if (context.model.toString() !== sent) {
      context.model.dirty = true; // JupyterLab has just marked it saved, typing in flight included
    }
  });
}

/** Resolves once no save of the document is on its way (at once if none is). */
function saveReturned(context: Context): Promise<void> {
  if (!saving.has(context)) {
    return Promise.resolve();
  }
  return new Promise(resolve => {
    const returned = (_: Context, state: DocumentRegistry.SaveState): void => {
      if (state !== 'started') {
        context.saveState.disconnect(returned);
        resolve();
      }
    };
    context.saveState.connect(returned);
  });
}

const turns = new WeakMap<Context, Promise<void>>();

/** Save a document with unsaved edits, unless its file changed on disk (then the warning says what to do), once any
 * save on its way (the lab's, or the student's Ctrl+S) has returned. Two at once make JupyterLab's second save find
 * the file changed by the first, and ask the student whether to overwrite it; or, should the first land last, leave
 * the older text on disk. */
function saveInTurn(app: JupyterFrontEnd, context: Context): Promise<void> {
  const turn = (turns.get(context) ?? Promise.resolve()).then(async () => {
    for (;;) {
      while (saving.has(context)) {
        await saveReturned(context);
      }
      const version = await newerOnDisk(app, context);
      if (saving.has(context)) {
        continue; // the student saved meanwhile: look again once that save has returned
      }
      if (version) {
        warnChangedOnDisk(app, context, version);
        return;
      }
      break;
    }
    if (!context.isDisposed && context.model.dirty) {
      await context.save();
    }
  });
  turns.set(context, turn.catch(() => undefined));
  return turn;
}

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
      watchSaves(context);
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
  const now = context.contentsModel; // a copy each time it is read: compare what it says
  if (saving.has(context) || now?.last_modified !== loaded.last_modified || now?.hash !== loaded.hash) {
    return null; // a save began or ended meanwhile: the disk is this document's own newer version
  }
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
    // The tab shows the disk now: its warning goes at once, not at the next look at the disk. Typing before that
    // look kept the warning, and a check run then told the student the file had changed on disk again.
    withdrawWarnings(context);
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
  shown.delete(context);
}

/** Reload every open document that has no unsaved edits and has changed on disk; warn about those with some. */
async function followTheDisk(app: JupyterFrontEnd): Promise<void> {
  for (const context of openDocuments(app)) {
    if (saving.has(context)) {
      continue; // looked at again next round, once the save is done
    }
    try {
      const version = await newerOnDisk(app, context);
      if (context.isDisposed) {
        continue;
      }
      if (context.model.dirty) {
        const warnings = warningsOf(context);
        warnings.dirtyRounds = (warnings.dirtyRounds ?? 0) + 1;
        if (version) {
          warnChangedOnDisk(app, context, version);
        } else if (!isNotebook(context) && warnings.dirtyRounds > 1) {
          await saveInTurn(app, context); // a round after the typing began: JupyterLab's autosave, for files only
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

function isNotebook(context: Context): boolean {
  return context.path.endsWith('.ipynb');
}

/** saveInTurn, for a cell's run: never raises. */
async function saveUnlessChangedOnDisk(app: JupyterFrontEnd, context: Context): Promise<void> {
  try {
    await saveInTurn(app, context);
  } catch {
    // The server is away: the cell says it used the file as last saved.
  }
}

/** Run means save and run: a cell that reads the learner's file from disk saves every open agent.py with unsaved
 * edits, and carries each tab's text in its metadata, so the kernel can wait for the save (on_screen.py). The
 * notebook's runner reads the cell's metadata right after this signal, before anything else runs. */
function saveOnRun(app: JupyterFrontEnd, cell: Cell): void {
  if (!USES_THE_FILE.test(cell.model.sharedModel.getSource())) {
    return;
  }
  const unsaved = [...openDocuments(app)].filter(
    context => context.path.split('/').pop() === GRADED_FILE && context.model.dirty
  );
  if (!unsaved.length) {
    return;
  }
  const tabs = unsaved.map(context => ({
    path: context.path,
    text: context.model.toString(),
    saving: !warningsOf(context).disk // a change on disk already announced: the student chooses, nothing is saved
  }));
  cell.model.setMetadata(SCREEN_KEY, tabs);
  queueMicrotask(() => cell.model.deleteMetadata(SCREEN_KEY)); // sent with this run only, never kept in the notebook
  for (const context of unsaved) {
    if (!warningsOf(context).disk) {
      void saveUnlessChangedOnDisk(app, context);
    }
  }
}

/** A lab notebook's tab shows its step and name first ("1 extract_code"), so seven open tabs stay apart. A tab's
 * label cannot change (JupyterLab renames the file to match it), so the tab gets a class, and a style drawn here
 * shows the title in place of the file name; hovering the tab still shows the file's path. */
function titleTabs(app: JupyterFrontEnd): void {
  for (const widget of app.shell.widgets('main')) {
    const found = 'context' in widget ? LAB_NOTEBOOK.exec((widget as IDocumentWidget).context.path) : null;
    if (!found) {
      continue;
    }
    const number = Number(found[1]);
    const name = `spec2code-tab-${number}`;
    if (!widget.title.className.split(' ').includes(name)) {
      widget.title.className = `${widget.title.className.replace(/\s*spec2code-tab-\d+/g, '')} ${name}`.trim();
    }
    const id = `${name}-style`;
    if (!document.getElementById(id)) {
      const style = document.createElement('style');
      style.id = id;
      const label = `.lm-DockPanel-tabBar .${name} > .lm-TabBar-tabLabel`;
      // The notebook icon is the same on every tab: its room goes to the title, which seven tabs leave little of.
      style.textContent =
        `.lm-DockPanel-tabBar .${name} > .lm-TabBar-tabIcon { display: none; }\n` +
        `${label} { font-size: 0; }\n` +
        `${label}::after { content: ${JSON.stringify(`${number} ${found[2]}`)}; font-size: var(--jp-ui-font-size1); }`;
      document.head.appendChild(style);
    }
  }
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'spec2code-reload-from-disk:plugin',
  description: 'Follow the disk where nothing is unsaved, save agent.py for the student, and title the lab notebooks.',
  autoStart: true,
  activate: (app: JupyterFrontEnd): void => {
    NotebookActions.executionScheduled.connect((_, { cell }) => {
      if (cell.model.type === 'code') {
        saveOnRun(app, cell);
      }
    });
    void app.restored.then(() => titleTabs(app));
    app.shell.currentChanged?.connect(() => titleTabs(app));
    let busy = false;
    window.setInterval(async () => {
      if (busy || document.visibilityState === 'hidden') {
        return;
      }
      busy = true;
      try {
        titleTabs(app);
        await followTheDisk(app);
      } finally {
        busy = false;
      }
    }, POLL_MS);
  }
};

export default plugin;
