// The quick-dial palette, for the keyboard: type a few letters, ↑/↓, Enter picks the person (or an
// escalation list, or a number typed in full); the template they were last called with is prefilled
// with its values; Enter calls. Options: call until answered (attempts, pause) and an escalation list
// to call next. When a per-number limit or quiet hours refuse the call, each refusal is shown with
// when it frees up, and calling anyway needs an explicit confirmation.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Button, Checkbox, Flex, Form, Input, InputNumber, Modal, Select, Switch, Tag, Typography, type InputRef } from 'antd';
import { ArrowLeftOutlined, PhoneOutlined, StarFilled, TeamOutlined, WarningOutlined } from '@ant-design/icons';
import { matchesAny } from '../../../../common/domain/search';
import { useTranslation } from 'react-i18next';
import type { ContactGroupRecord, ContactRecord, DialRefusal, DialRequest } from '../../../../common/bulk-types';
import { normalizeMobile } from '../../../../common/domain/mobile';
import { dialOptions, LIST_DIAL_DEFAULTS, ONE_DIAL_DEFAULTS, type DialDefaults } from '../../../../common/domain/dial-defaults';
import { describeError, type IpcError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import {
  defaultTemplate,
  fillPreview,
  formatClock,
  lastCalledWithTemplate,
  markerLabel,
  prefillFor,
  refusalText,
  spokenText,
  type RememberedValues,
} from './dial-model';
import { HearItButton } from '../../app/HearItButton';
import { dialRuns, takeTypeAhead, type PalettePreset } from './dial-store';
import { SHORTCUT_KEYS } from './shortcut';
import { useContactSearch, useStartDial, type DialData } from './use-dial-data';
import { withAside } from '../../i18n/punctuation';
import { navigate } from '../../app/navigation';

type Target = { kind: 'contact'; contact: ContactRecord } | { kind: 'group'; group: ContactGroupRecord } | { kind: 'number'; mobile: string };
type Option = { key: string } & Target;

/** Whom a quick dial was for, as the palette names it. */
function targetLabel(tg: Target): string {
  return tg.kind === 'contact' ? tg.contact.name : tg.kind === 'group' ? tg.group.name : tg.mobile;
}
type Stage = 'search' | 'confirm' | 'refused';

/** What the palette remembers between openings (this session); "until answered" apart for one person and for a list (dial-defaults.ts). */
const memory: { templateId: string | null; profileId: string | null; options: Record<'one' | 'list', DialDefaults>; values: Record<string, RememberedValues> } =
  {
    templateId: null,
    profileId: null,
    options: { one: { ...ONE_DIAL_DEFAULTS }, list: { ...LIST_DIAL_DEFAULTS } },
    values: {},
  };

export interface QuickDialPaletteProps {
  open: boolean;
  preset: PalettePreset;
  data: DialData;
  onClose: () => void;
  /** A run started (contacts remember their template: reload them). */
  onStarted: () => void;
}

export function QuickDialPalette({ open, preset, data, onClose, onStarted }: QuickDialPaletteProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [stage, setStage] = useState<Stage>('search');
  const [query, setQuery] = useState('');
  // While the results for the text typed load, those shown before stay on screen: `fresh` says
  // whether the ones shown were just found for this text (a failed search finds nobody).
  const search = useContactSearch(query, open && stage === 'search');
  const matches = search.data ?? null;
  const fresh = search.isFetched && !search.isFetching;
  /** Enter was pressed before the results for the current text arrived: choose once they do. */
  const pendingEnter = useRef(false);
  const [active, setActive] = useState(0);
  const [target, setTarget] = useState<Target | null>(null);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [values, setValues] = useState<string[]>([]);
  const [valuesFrom, setValuesFrom] = useState<RememberedValues | null>(null);
  const [profileId, setProfileId] = useState<string | null>(null);
  const [untilAnswered, setUntilAnswered] = useState(memory.options.one.untilAnswered);
  const [attempts, setAttempts] = useState<number>(memory.options.one.attempts);
  const [pauseSeconds, setPauseSeconds] = useState<number>(memory.options.one.pauseSeconds);
  const [escalation, setEscalation] = useState<number | null>(null);
  const kind: 'one' | 'list' = target?.kind === 'group' || (target?.kind === 'contact' && escalation !== null) ? 'list' : 'one';
  useEffect(() => {
    const d = memory.options[kind];
    setUntilAnswered(d.untilAnswered);
    setAttempts(d.attempts);
    setPauseSeconds(d.pauseSeconds);
  }, [kind]);
  const [refusals, setRefusals] = useState<DialRefusal[]>([]);
  const [overrideChecked, setOverrideChecked] = useState(false);
  const starting = useStartDial();
  const busy = starting.isPending;
  const [problem, setProblem] = useState<string | null>(null);
  const [missing, setMissing] = useState<number[]>([]);
  const searchRef = useRef<InputRef>(null);
  const callRef = useRef<HTMLButtonElement>(null);
  const valueRefs = useRef<(InputRef | null)[]>([]);

  const template = data.templates.find((x) => x.id === templateId) ?? null;
  const approved = data.templates.filter((x) => x.approved);
  const contactsById = useMemo(() => new Map(data.contacts.map((c) => [c.id, c])), [data.contacts]);
  const usableProfiles = data.profiles.filter((p) => p.hasKey);

  // ------------------------------------------------------------ search

  // New results: the first one is active.
  useEffect(() => setActive(0), [search.data]);

  const options: Option[] = useMemo(() => {
    const out: Option[] = (matches ?? []).map((m) => ({ key: `c${m.contact.id}`, kind: 'contact' as const, contact: m.contact }));
    // Escalation lists by name, pinyin included (the contacts come from main's search, same rule).
    for (const g of data.groups) {
      if (g.memberIds.length && matchesAny([g.name], query)) out.push({ key: `g${g.id}`, kind: 'group', group: g });
    }
    const number = normalizeMobile(query);
    if (number.ok && !out.some((o) => o.kind === 'contact' && o.contact.mobile === number.mobile))
      out.push({ key: `n${number.mobile}`, kind: 'number', mobile: number.mobile });
    return out;
  }, [matches, data.groups, query]);

  // ------------------------------------------------------------ choosing

  const firstContact = useCallback(
    (tg: Target): ContactRecord | null =>
      tg.kind === 'contact' ? tg.contact : tg.kind === 'group' ? (contactsById.get(tg.group.memberIds[0] ?? -1) ?? null) : null,
    [contactsById],
  );

  const pick = useCallback(
    (tg: Target) => {
      const members = tg.kind === 'contact' ? [tg.contact] : tg.kind === 'group' ? tg.group.memberIds.flatMap((id) => contactsById.get(id) ?? []) : [];
      const tpl = defaultTemplate(data.templates, members, memory.templateId, data.contacts);
      const last = lastCalledWithTemplate(members);
      const prefilled = prefillFor(tpl, last, memory.values);
      setTarget(tg);
      setTemplateId(tpl?.id ?? null);
      setValues(prefilled.values);
      setValuesFrom(prefilled.from);
      setEscalation(null);
      setMissing([]);
      setProblem(null);
      setStage('confirm');
    },
    [data.templates, data.contacts, contactsById],
  );

  // Opening: reset, or go straight to a preset person or list.
  useEffect(() => {
    if (!open) return;
    setQuery('');
    pendingEnter.current = false;
    setActive(0);
    setRefusals([]);
    setOverrideChecked(false);
    setProblem(null);
    setProfileId((current) => {
      const keep = current ?? memory.profileId;
      if (keep && usableProfiles.some((p) => p.id === keep)) return keep;
      return (usableProfiles.find((p) => p.builtin) ?? usableProfiles[0])?.id ?? null;
    });
    const presetTarget: Target | null =
      preset?.kind === 'contact' && contactsById.get(preset.contactId)
        ? { kind: 'contact', contact: contactsById.get(preset.contactId)! }
        : preset?.kind === 'group' && data.groups.find((g) => g.id === preset.groupId)
          ? { kind: 'group', group: data.groups.find((g) => g.id === preset.groupId)! }
          : null;
    if (presetTarget) pick(presetTarget);
    else {
      setTarget(null);
      setStage('search');
    }
    // Only when the palette opens (or is asked again with another preset).
  }, [open, preset]);

  // Focus: the search field; then the first empty value, else the Call button; then the override box.
  const bodyRef = useRef<HTMLDivElement>(null);
  const placeFocus = () => {
    if (stage === 'search') {
      searchRef.current?.focus();
      const ahead = takeTypeAhead();
      if (ahead?.text) setQuery((q) => q + ahead.text);
      if (ahead?.enter) {
        // Enter was pressed before the results came: choose once they do (as Enter in the field does).
        if (!ahead.text && fresh) {
          const o = options[active];
          if (o) pick(o);
        } else pendingEnter.current = true;
      }
    } else if (stage === 'confirm') {
      const empty = values.findIndex((v) => !v.trim());
      if (empty >= 0) valueRefs.current[empty]?.focus();
      else callRef.current?.focus();
    } else bodyRef.current?.querySelector<HTMLInputElement>('[data-testid="override-check"] input, input[data-testid="override-check"]')?.focus();
  };
  const placeFocusRef = useRef(placeFocus);
  placeFocusRef.current = placeFocus;
  useEffect(() => {
    if (!open) return;
    const timer = window.setTimeout(() => placeFocusRef.current(), 0);
    return () => window.clearTimeout(timer);
    // Focus moves when the stage changes, not on every keystroke in a value.
  }, [open, stage, target]);
  // The palette opens over whatever is on screen, also while another dialog is still closing (a send
  // confirmed a moment before Ctrl+K). That dialog hands the focus back to what opened it when its
  // animation ends, and the dialog frame takes it when the palette's ends: keys typed then would go
  // behind the palette (Enter would press the Send button again). While the palette is open, the
  // focus stays in it; its own drop-downs and any dialog above it may have it.
  useEffect(() => {
    if (!open) return;
    const keep = (e: FocusEvent) => {
      const wrap = bodyRef.current?.closest('.ant-modal-wrap');
      const to = e.target;
      if (!wrap || !(to instanceof Element) || wrap.contains(to)) return;
      if (to.closest('.ant-modal-wrap, .ant-select-dropdown, .ant-picker-dropdown, .ant-dropdown, .ant-popover, .ant-tooltip')) return;
      placeFocusRef.current();
    };
    document.addEventListener('focusin', keep, true);
    return () => document.removeEventListener('focusin', keep, true);
  }, [open]);

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (options.length) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (e.key === 'Enter') {
      // preventDefault: the same key press must not also press the Call button that takes the focus.
      e.preventDefault();
      // Never pick from results for an earlier text (that could be someone else): wait for these.
      if (!fresh) {
        pendingEnter.current = true;
        return;
      }
      const o = options[active];
      if (o) pick(o);
    }
  };

  useEffect(() => {
    if (!pendingEnter.current || !fresh || stage !== 'search') return;
    pendingEnter.current = false;
    const o = options[0];
    if (o) pick(o);
  }, [fresh, options, stage, pick]);

  const changeTemplate = (id: string) => {
    const tpl = data.templates.find((x) => x.id === id);
    const first = target ? firstContact(target) : null;
    const prefilled = prefillFor(tpl ?? null, first, memory.values);
    setTemplateId(id);
    setValues(prefilled.values);
    setValuesFrom(prefilled.from);
    setMissing([]);
  };

  // ------------------------------------------------------------ calling

  const buildRequest = (override: boolean): DialRequest | null => {
    if (!target || !profileId || !template) return null;
    const base: DialRequest = {
      profileId,
      templateId: template.id,
      values: values.map((v) => v.trim()),
      ...dialOptions({ untilAnswered, attempts, pauseSeconds }),
      ...(override ? { override: true } : {}),
    };
    if (target.kind === 'group') return { ...base, groupId: target.group.id };
    if (target.kind === 'number') return { ...base, targets: [{ mobile: target.mobile }] };
    const next = escalation !== null ? (data.groups.find((g) => g.id === escalation)?.memberIds ?? []).filter((id) => id !== target.contact.id) : [];
    return { ...base, targets: [{ contactId: target.contact.id }, ...next.map((contactId) => ({ contactId }))] };
  };

  const dial = async (override: boolean) => {
    if (busy) return;
    const empty = values.map((v, i) => (v.trim() ? -1 : i)).filter((i) => i >= 0);
    setMissing(empty);
    if (empty.length) {
      valueRefs.current[empty[0]!]?.focus();
      return;
    }
    const req = buildRequest(override);
    if (!req) {
      setProblem(!profileId ? t('dial.palette.noProfile') : t('dial.palette.noTemplate'));
      return;
    }
    setProblem(null);
    let started: Awaited<ReturnType<typeof starting.mutateAsync>>;
    try {
      started = await starting.mutateAsync(req);
    } catch (e) {
      const error = e as IpcError;
      const issue = error.issues?.[0];
      if (issue?.path.startsWith('values.')) setMissing([Number(issue.path.slice(7))]);
      else setProblem(describeError(t, error));
      return;
    }
    if (!started.started) {
      setRefusals(started.plan.refusals);
      setOverrideChecked(false);
      setStage('refused');
      return;
    }
    memory.templateId = template?.id ?? null;
    memory.profileId = profileId;
    memory.options[kind] = { untilAnswered, attempts, pauseSeconds };
    if (template && target) memory.values[template.id] = { values, who: targetLabel(target), at: Date.now() };
    dialRuns.started(started.runId, started.plan);
    onStarted();
    onClose();
  };

  const onConfirmKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const el = e.target as HTMLElement;
    // Buttons, switches and checkboxes act on Enter themselves; a select uses Enter to choose.
    if (el.closest('button, .ant-select, .ant-switch, .ant-checkbox-wrapper, textarea')) return;
    e.preventDefault();
    void dial(false);
  };

  // ------------------------------------------------------------ view

  const who = (tg: Target) => (tg.kind === 'contact' ? `${tg.contact.name} · ${tg.contact.mobile}` : tg.kind === 'group' ? tg.group.name : tg.mobile);

  const title = (
    <Flex align="center" gap={8}>
      <PhoneOutlined aria-hidden />
      <span>{t('dial.palette.title')}</span>
      <span className="dial-kbd-hint" aria-hidden>
        {SHORTCUT_KEYS.map((k) => (
          <Typography.Text keyboard key={k}>
            {k}
          </Typography.Text>
        ))}
      </span>
    </Flex>
  );

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={title}
      width={660}
      destroyOnHidden
      className="dial-palette"
      // The dialog frame takes the focus when the opening animation ends unless it is already inside.
      afterOpenChange={(opened) => {
        if (opened && !bodyRef.current?.contains(document.activeElement)) placeFocusRef.current();
      }}
    >
      <div ref={bodyRef} data-testid="palette-body" data-stage={stage}>
        {stage === 'search' ? (
          <>
            <Input
              ref={searchRef}
              size="large"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={onSearchKey}
              placeholder={t('dial.palette.searchPlaceholder')}
              aria-label={t('dial.palette.searchLabel')}
              role="combobox"
              aria-expanded={options.length > 0}
              aria-controls="dial-palette-options"
              aria-activedescendant={options[active] ? `dial-option-${options[active].key}` : undefined}
              aria-autocomplete="list"
              data-testid="palette-search"
              allowClear
            />
            <ul
              id="dial-palette-options"
              role="listbox"
              aria-label={t('dial.palette.resultsLabel')}
              aria-busy={!fresh}
              className="dial-options"
              data-testid="palette-options"
              data-fresh={fresh}
            >
              {options.map((o, i) => (
                <li
                  key={o.key}
                  id={`dial-option-${o.key}`}
                  role="option"
                  aria-selected={i === active}
                  className={i === active ? 'dial-option dial-option-active' : 'dial-option'}
                  data-testid="palette-option"
                  data-kind={o.kind}
                  data-key={o.key}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => pick(o)}
                >
                  <OptionView option={o} contactsById={contactsById} templates={data.templates} />
                </li>
              ))}
            </ul>
            {fresh && options.length === 0 ? (
              <Typography.Paragraph type="secondary" className="dial-options-empty" data-testid="palette-empty">
                {data.contacts.length ? t('dial.palette.noMatch', { query }) : t('dial.palette.noContacts')}
                {data.contacts.length ? null : (
                  <Button
                    type="link"
                    size="small"
                    data-testid="palette-add-contacts"
                    onClick={() => {
                      onClose();
                      navigate('dial');
                    }}
                  >
                    {t('dial.palette.addContacts')}
                  </Button>
                )}
              </Typography.Paragraph>
            ) : null}
            <Typography.Text type="secondary" className="dial-palette-help">
              {t('dial.palette.help')}
            </Typography.Text>
          </>
        ) : null}

        {stage === 'confirm' && target ? (
          <div onKeyDown={onConfirmKey} data-testid="palette-confirm">
            <Flex align="center" gap={8} className="dial-target">
              {target.kind === 'group' ? <TeamOutlined aria-hidden /> : <PhoneOutlined aria-hidden />}
              <Typography.Text strong data-testid="palette-target">
                {who(target)}
              </Typography.Text>
              {target.kind === 'group' ? (
                <Typography.Text type="secondary">{target.group.memberIds.map((id) => contactsById.get(id)?.name ?? `#${id}`).join(' → ')}</Typography.Text>
              ) : null}
            </Flex>
            {problem ? <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} data-testid="palette-problem" /> : null}
            {approved.length === 0 ? <Alert type="warning" showIcon title={t('dial.palette.noTemplates')} style={{ marginBottom: 12 }} /> : null}
            <Form layout="vertical" requiredMark={false} className="dial-confirm-form" component="div">
              <Flex gap={12}>
                <Form.Item label={t('dial.palette.template')} htmlFor="dial-template" style={{ flex: 2, minWidth: 0 }}>
                  <Select
                    id="dial-template"
                    value={templateId ?? undefined}
                    onChange={changeTemplate}
                    options={data.templates.map((x) => ({ value: x.id, label: x.name, disabled: !x.approved }))}
                    data-testid="palette-template"
                  />
                </Form.Item>
                <Form.Item label={t('dial.palette.profile')} htmlFor="dial-profile" style={{ flex: 1, minWidth: 0 }}>
                  <Select
                    id="dial-profile"
                    value={profileId ?? undefined}
                    onChange={setProfileId}
                    options={usableProfiles.map((p) => ({ value: p.id, label: p.name }))}
                  />
                </Form.Item>
              </Flex>
              {template && template.markerCount > 0 ? (
                <Flex gap={12} wrap>
                  {values.map((v, i) => (
                    <Form.Item
                      key={i}
                      label={markerLabel(t, template, i)}
                      htmlFor={`dial-value-${i}`}
                      style={{ flex: '1 1 180px' }}
                      validateStatus={missing.includes(i) ? 'error' : undefined}
                      help={missing.includes(i) ? t('dial.palette.valueRequired', { label: markerLabel(t, template, i) }) : undefined}
                    >
                      <Input
                        id={`dial-value-${i}`}
                        ref={(el) => {
                          valueRefs.current[i] = el;
                        }}
                        value={v}
                        onChange={(e) => setValues((vs) => vs.map((x, j) => (j === i ? e.target.value : x)))}
                        data-testid="palette-value"
                      />
                    </Form.Item>
                  ))}
                </Flex>
              ) : null}
              {template && valuesFrom ? (
                <Typography.Text type="warning" className="dial-values-from" data-testid="palette-values-from">
                  {t('dial.palette.valuesFrom', { who: valuesFrom.who, time: formatClock(lang, valuesFrom.at) })}
                </Typography.Text>
              ) : null}
              {template ? (
                <div className="dial-preview" data-testid="palette-preview">
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('dial.palette.preview')}
                  </Typography.Text>
                  <div>{fillPreview(t, template, values)}</div>
                  <HearItButton text={spokenText(template, values) ?? ''} size="small" data-testid="palette-hear" />
                </div>
              ) : null}
              <Flex gap={16} align="center" wrap className="dial-options-row">
                <label className="dial-switch">
                  <Switch checked={untilAnswered} onChange={setUntilAnswered} data-testid="palette-until-answered" />
                  <span>{t('dial.palette.untilAnswered')}</span>
                </label>
                {untilAnswered ? (
                  <>
                    <label className="dial-inline-field">
                      <span>{t('dial.palette.attempts')}</span>
                      <InputNumber
                        min={2}
                        max={10}
                        precision={0}
                        value={attempts}
                        onChange={(n) => setAttempts(typeof n === 'number' ? n : 2)}
                        style={{ width: 72 }}
                        data-testid="palette-attempts"
                      />
                    </label>
                    <label className="dial-inline-field">
                      <span>{t('dial.palette.pause')}</span>
                      <InputNumber
                        min={0}
                        max={3600}
                        precision={0}
                        value={pauseSeconds}
                        onChange={(n) => setPauseSeconds(typeof n === 'number' ? n : 0)}
                        style={{ width: 88 }}
                        suffix={t('dial.palette.seconds')}
                        data-testid="palette-pause"
                      />
                    </label>
                  </>
                ) : null}
              </Flex>
              {target.kind === 'contact' && data.groups.length ? (
                <Form.Item label={t('dial.palette.escalation')} htmlFor="dial-escalation" style={{ marginTop: 12 }} extra={t('dial.palette.escalationHelp')}>
                  <Select
                    id="dial-escalation"
                    allowClear
                    placeholder={t('dial.palette.escalationNone')}
                    value={escalation ?? undefined}
                    onChange={(v: number | undefined) => setEscalation(v ?? null)}
                    options={data.groups.map((g) => ({
                      value: g.id,
                      label: withAside(lang, g.name, g.memberIds.map((id) => contactsById.get(id)?.name ?? `#${id}`).join(' → ')),
                    }))}
                  />
                </Form.Item>
              ) : null}
            </Form>
            <Flex justify="space-between" align="center" style={{ marginTop: 16 }}>
              <Button icon={<ArrowLeftOutlined />} onClick={() => setStage('search')}>
                {t('dial.palette.back')}
              </Button>
              <Flex align="center" gap={12}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('dial.palette.enterToCall')}
                </Typography.Text>
                <Button type="primary" icon={<PhoneOutlined />} ref={callRef} loading={busy} onClick={() => void dial(false)} data-testid="palette-call">
                  {t('dial.palette.call')}
                </Button>
              </Flex>
            </Flex>
          </div>
        ) : null}

        {stage === 'refused' && target ? (
          <div data-testid="palette-refused">
            <Alert
              type="warning"
              showIcon
              icon={<WarningOutlined />}
              title={t('dial.refusal.title', { who: who(target) })}
              description={
                <ul className="dial-refusals" data-testid="refusals">
                  {refusals.map((r, i) => {
                    const text = refusalText(t, lang, r, undefined, data.contacts.find((c) => c.mobile === r.mobile)?.name ?? null);
                    return (
                      <li key={i} data-testid="refusal" data-limit={r.limit} data-frees-at={r.freesAt}>
                        <div>{text.title}</div>
                        {text.plan ? <div>{text.plan}</div> : null}
                        <Typography.Text type="secondary">{text.frees}</Typography.Text>
                      </li>
                    );
                  })}
                </ul>
              }
            />
            <Checkbox
              checked={overrideChecked}
              onChange={(e) => setOverrideChecked(e.target.checked)}
              // The dialog asks for this one decision: Enter ticks (or unticks) it, as Space does.
              onKeyDown={(e) => {
                if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
                e.preventDefault();
                setOverrideChecked((v) => !v);
              }}
              style={{ marginTop: 16 }}
              data-testid="override-check"
              autoFocus
            >
              {t('dial.refusal.confirm')}
            </Checkbox>
            {problem ? <Alert type="error" showIcon title={problem} style={{ marginTop: 12 }} /> : null}
            <Flex justify="space-between" style={{ marginTop: 16 }}>
              <Button icon={<ArrowLeftOutlined />} onClick={() => setStage('confirm')}>
                {t('dial.palette.back')}
              </Button>
              <Button danger type="primary" disabled={!overrideChecked} loading={busy} onClick={() => void dial(true)} data-testid="override-call">
                {t('dial.refusal.callAnyway')}
              </Button>
            </Flex>
          </div>
        ) : null}
      </div>
    </Modal>
  );
}

function OptionView({ option, contactsById, templates }: { option: Option; contactsById: Map<number, ContactRecord>; templates: DialData['templates'] }) {
  const { t } = useTranslation();
  if (option.kind === 'contact') {
    const c = option.contact;
    const last = c.lastTemplateId ? templates.find((x) => x.id === c.lastTemplateId) : null;
    return (
      <Flex align="center" gap={10} className="dial-option-row">
        <span className="dial-option-star" aria-label={c.favourite ? t('dial.contacts.favourite') : undefined}>
          {c.favourite ? <StarFilled style={{ color: '#faad14' }} /> : null}
        </span>
        <span className="dial-option-name">{c.name}</span>
        <span className="dial-option-mobile">{c.mobile}</span>
        <span className="dial-option-note">{c.note}</span>
        {last ? <Tag className="dial-option-tag">{t('dial.palette.lastTemplate', { name: last.name })}</Tag> : null}
      </Flex>
    );
  }
  if (option.kind === 'group') {
    return (
      <Flex align="center" gap={10} className="dial-option-row">
        <span className="dial-option-star">
          <TeamOutlined />
        </span>
        <span className="dial-option-name">{option.group.name}</span>
        <span className="dial-option-note">{option.group.memberIds.map((id) => contactsById.get(id)?.name ?? `#${id}`).join(' → ')}</span>
        <Tag className="dial-option-tag">{t('dial.palette.escalationTag')}</Tag>
      </Flex>
    );
  }
  return (
    <Flex align="center" gap={10} className="dial-option-row">
      <span className="dial-option-star">
        <PhoneOutlined />
      </span>
      <span className="dial-option-name">{t('dial.palette.callNumber', { mobile: option.mobile })}</span>
    </Flex>
  );
}
