// Contacts for quick dial: name, mobile, favourite star (favourites come first in the palette), a
// note, the escalation lists they are in. Add, edit, delete; "Call" opens the palette on them.
import { useEffect, useState, type HTMLAttributes } from 'react';
import { Button, Checkbox, Empty, Flex, Form, Input, Modal, Table, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PhoneOutlined, PlusOutlined, SearchOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { matchesAny } from '../../../../common/domain/search';
import { useTranslation } from 'react-i18next';
import type { ContactGroupRecord, ContactRecord } from '../../../../common/bulk-types';
import { normalizeMobile } from '../../../../common/domain/mobile';
import { describeError, describeIssue, type IpcError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { formatClock } from './dial-model';
import { requestPalette } from './dial-store';
import { useRemoveContact, useSaveContact, useSetFavourite, type DialData } from './use-dial-data';
import { useFeedback } from '../../app/feedback';

export interface ContactsTabProps {
  data: DialData;
  onChanged: () => void;
}

export function ContactsTab({ data, onChanged }: ContactsTabProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { modal, message } = useFeedback();
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<{ contact: ContactRecord | null } | null>(null);
  const favouring = useSetFavourite();
  const removing = useRemoveContact();
  const groupsOf = (c: ContactRecord): ContactGroupRecord[] => data.groups.filter((g) => g.memberIds.includes(c.id));
  // Name (its pinyin too: 王工 by "wg"), number or note: the one matching rule (common/domain/search).
  const digits = query.replace(/[\s\-+()]/g, '');
  const shown = data.contacts
    .filter((c) => matchesAny([c.name, c.note], query) || (/^\d+$/.test(digits) && c.mobile.includes(digits)))
    .sort((a, b) => Number(b.favourite) - Number(a.favourite) || a.name.localeCompare(b.name, lang));

  const toggleFavourite = (c: ContactRecord) => favouring.mutate(c, { onSuccess: onChanged, onError: (e) => void message.error(describeError(t, e)) });

  const remove = (c: ContactRecord) => {
    modal.confirm({
      title: t('dial.contacts.confirmDelete', { name: c.name }),
      content: groupsOf(c).length
        ? t('dial.contacts.confirmDeleteGroups', {
            groups: groupsOf(c)
              .map((g) => g.name)
              .join(', '),
          })
        : undefined,
      okText: t('dial.contacts.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () =>
        removing.mutateAsync(c).then(
          () => {
            void message.success(t('dial.contacts.deleted', { name: c.name }));
            onChanged();
          },
          (e: IpcError) => void message.error(describeError(t, e)),
        ),
    });
  };

  return (
    <div data-testid="contacts-tab">
      <Flex gap={12} justify="space-between" style={{ marginBottom: 12 }}>
        <Input
          prefix={<SearchOutlined aria-hidden />}
          allowClear
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t('dial.contacts.filter')}
          aria-label={t('dial.contacts.filter')}
          style={{ maxWidth: 320 }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ contact: null })} data-testid="add-contact">
          {t('dial.contacts.add')}
        </Button>
      </Flex>
      <Table<ContactRecord>
        size="middle"
        rowKey="id"
        dataSource={shown}
        pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{
          emptyText: (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={data.contacts.length ? t('dial.contacts.noMatch') : t('dial.contacts.empty')}>
              {data.contacts.length ? null : (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ contact: null })}>
                  {t('dial.contacts.add')}
                </Button>
              )}
            </Empty>
          ),
        }}
        onRow={(c) => ({ 'data-testid': 'contact-row', 'data-contact-id': c.id, 'data-favourite': c.favourite }) as HTMLAttributes<HTMLTableRowElement>}
        columns={[
          {
            key: 'favourite',
            width: 48,
            title: <span className="visually-hidden">{t('dial.contacts.favourite')}</span>,
            render: (_, c) => (
              <Tooltip title={c.favourite ? t('dial.contacts.unfavourite') : t('dial.contacts.makeFavourite')}>
                <Button
                  type="text"
                  size="small"
                  icon={c.favourite ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
                  aria-pressed={c.favourite}
                  aria-label={t('dial.contacts.favouriteLabel', { name: c.name })}
                  onClick={() => void toggleFavourite(c)}
                  data-testid="favourite-toggle"
                />
              </Tooltip>
            ),
          },
          { key: 'name', title: t('dial.contacts.col.name'), dataIndex: 'name', width: 160, ellipsis: true },
          { key: 'mobile', title: t('dial.contacts.col.mobile'), dataIndex: 'mobile', width: 130 },
          { key: 'note', title: t('dial.contacts.col.note'), dataIndex: 'note', ellipsis: true },
          {
            key: 'groups',
            title: t('dial.contacts.col.groups'),
            width: 160,
            render: (_, c) => (
              <Flex gap={4} wrap>
                {groupsOf(c).map((g) => (
                  <Tag key={g.id} style={{ marginInlineEnd: 0 }}>
                    {g.name}
                  </Tag>
                ))}
              </Flex>
            ),
          },
          {
            key: 'last',
            title: t('dial.contacts.col.last'),
            width: 170,
            render: (_, c) => {
              const tpl = c.lastTemplateId ? data.templates.find((x) => x.id === c.lastTemplateId) : null;
              return c.lastCalledAt ? (
                <Flex vertical>
                  <span>{formatClock(lang, c.lastCalledAt)}</span>
                  {tpl ? (
                    <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                      {tpl.name}
                    </Typography.Text>
                  ) : null}
                </Flex>
              ) : (
                <Typography.Text type="secondary">{t('dial.contacts.never')}</Typography.Text>
              );
            },
          },
          {
            key: 'actions',
            title: t('dial.contacts.col.actions'),
            width: 170,
            render: (_, c) => (
              <Flex gap={4}>
                <Button
                  size="small"
                  icon={<PhoneOutlined />}
                  onClick={() => requestPalette({ kind: 'contact', contactId: c.id })}
                  aria-label={t('dial.contacts.callLabel', { name: c.name })}
                >
                  {t('dial.contacts.call')}
                </Button>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  onClick={() => setEditing({ contact: c })}
                  aria-label={t('dial.contacts.editLabel', { name: c.name })}
                />
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(c)}
                  aria-label={t('dial.contacts.deleteLabel', { name: c.name })}
                />
              </Flex>
            ),
          },
        ]}
      />
      <ContactFormModal
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={(c, created) => {
          setEditing(null);
          void message.success(created ? t('dial.contacts.added', { name: c.name }) : t('dial.contacts.saved', { name: c.name }));
          onChanged();
        }}
      />
    </div>
  );
}

interface ContactFormValues {
  name: string;
  mobile: string;
  favourite: boolean;
  note: string;
}

function ContactFormModal({
  editing,
  onClose,
  onSaved,
}: {
  editing: { contact: ContactRecord | null } | null;
  onClose: () => void;
  onSaved: (c: ContactRecord, created: boolean) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ContactFormValues>();
  const saving = useSaveContact();
  const [problem, setProblem] = useState<string | null>(null);
  const contact = editing?.contact ?? null;

  useEffect(() => {
    if (!editing) return;
    setProblem(null);
    form.resetFields();
    form.setFieldsValue({ name: contact?.name ?? '', mobile: contact?.mobile ?? '', favourite: contact?.favourite ?? false, note: contact?.note ?? '' });
  }, [editing, contact, form]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    let error: IpcError;
    try {
      const saved = await saving.mutateAsync({
        ...(contact ? { id: contact.id } : {}),
        name: values.name.trim(),
        mobile: values.mobile,
        favourite: values.favourite,
        note: values.note?.trim() ?? '',
      });
      return onSaved(saved, !contact);
    } catch (e) {
      error = e as IpcError;
    }
    const fields = (error.issues ?? [])
      .filter((i) => i.path in values)
      .map((i) => ({ name: i.path as keyof ContactFormValues, errors: [describeIssue(t, i.message)] }));
    if (fields.length) form.setFields(fields);
    else setProblem(describeError(t, error));
  };

  return (
    <Modal
      open={editing !== null}
      title={contact ? t('dial.contacts.form.editTitle', { name: contact.name }) : t('dial.contacts.form.addTitle')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving.isPending}
      forceRender
    >
      {problem ? <Typography.Paragraph type="danger">{problem}</Typography.Paragraph> : null}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        name="contact"
        className="callout-form"
        data-testid="contact-form"
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !(e.target as HTMLElement).closest('textarea') && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void save();
          }
        }}
      >
        <Form.Item
          name="name"
          label={t('dial.contacts.form.name')}
          rules={[
            { required: true, whitespace: true, message: t('dial.contacts.form.nameRequired') },
            { max: 60, message: t('dial.contacts.form.nameTooLong') },
          ]}
        >
          <Input autoFocus maxLength={60} />
        </Form.Item>
        <Form.Item
          name="mobile"
          label={t('dial.contacts.form.mobile')}
          rules={[
            {
              validator: (_, value: string) => {
                const n = normalizeMobile(value ?? '');
                return n.ok ? Promise.resolve() : Promise.reject(new Error(t(`mobile.${n.error}`, { ns: 'msg' })));
              },
            },
          ]}
        >
          <Input placeholder={t('dial.contacts.form.mobilePlaceholder')} inputMode="tel" />
        </Form.Item>
        <Form.Item name="note" label={t('dial.contacts.form.note')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={500} placeholder={t('dial.contacts.form.notePlaceholder')} />
        </Form.Item>
        <Form.Item name="favourite" valuePropName="checked" style={{ marginBottom: 0 }}>
          <Checkbox>{t('dial.contacts.form.favourite')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
